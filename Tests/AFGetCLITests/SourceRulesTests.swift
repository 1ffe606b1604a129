import XCTest

/// Rules of the sources that no compiler checks.
final class SourceRulesTests: XCTestCase {
    /// Foundation would link its ICU data into the static binary (31 → 80 MB) and slow every
    /// start; FoundationEssentials has what afget uses.
    func testNoSourceImportsFoundation() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var checked = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            XCTAssertFalse(
                text.split(separator: "\n").contains("import Foundation"), "\(file.path) imports Foundation")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100)
    }
}
