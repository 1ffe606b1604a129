@testable import AFGetCLI
import XCTest

/// The parser's "Did you mean" is kept for a typo and left out for an option merely a few
/// letters long (`--foo` was offered `--dir`).
final class CloseMatchTests: XCTestCase {
    func testOnlyCloseSuggestionsAreKept() {
        let cases: [(typed: String, suggested: String, kept: Bool)] = [
            ("--foo", "--dir", false),
            ("--cat", "--auth", false),
            ("--io", "--dir", false),
            ("-z", "--dir", false),
            ("--dor", "--dir", true),
            ("--dri", "--dir", true),
            ("--retyr", "--retry", true),
            ("--ret", "--retry", true),
            ("--jsn", "--json", true),
            ("--outptu", "--output", true),
            ("--acept-status", "--accept-status", true),
            ("--conect-timout", "--connect-timeout", true),
            ("--dirs", "--dir", true),
        ]
        for (typed, suggested, kept) in cases {
            let message = "Unknown option '\(typed)'. Did you mean '\(suggested)'?"
            XCTAssertEqual(CloseMatch.trimmed(message), kept ? message : "Unknown option '\(typed)'", "\(typed) → \(suggested)")
        }
    }

    func testOtherMessagesAreLeftAlone() {
        for message in ["Unknown option '--foo'", "Missing value for '-o <path>'", "Unexpected argument 'x'"] {
            XCTAssertEqual(CloseMatch.trimmed(message), message)
        }
    }
}
