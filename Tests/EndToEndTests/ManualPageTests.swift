import Foundation
import XCTest

/// afget(1) as a newcomer reaches it: from the checkout, by README's own line, and saying what
/// `--help` and README say.
final class ManualPageTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// `MANPATH=…/man man afget` found nothing: man(1) looks in a path's `man1/`, and the page
    /// was at man/afget.1. README's line, run from the checkout (`man -w`: where, not the page).
    func testReadmesManLineFindsThePageFromTheCheckout() throws {
        let readme = try text("README.md")
        let line = try XCTUnwrap(
            readme.range(of: "`MANPATH=[^`]* man afget`", options: .regularExpression).map { readme[$0].dropFirst().dropLast() },
            "README gives the man line that works from the checkout")
        let command = line.replacingOccurrences(of: " man afget", with: " man -w afget")
        let run = try runProgram("/bin/sh", ["-c", command], in: Self.repository)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            Self.repository.appendingPathComponent("man/man1/afget.1").path)
    }

    /// README showed `--generate-completion-script`; afget(1)'s OPTIONS, where people look for a
    /// flag, did not list it.
    func testTheManualsOptionsNameTheCompletionScriptOption() throws {
        let manual = try text("man/man1/afget.1")
        let start = try XCTUnwrap(manual.range(of: "\n.SH OPTIONS\n"))
        let end = try XCTUnwrap(manual.range(of: "\n.SH ", range: start.upperBound..<manual.endIndex))
        XCTAssertTrue(
            manual[start.upperBound..<end.lowerBound].contains("\n.BR \"\\-\\-generate\\-completion\\-script "),
            "afget(1) OPTIONS names --generate-completion-script")
    }
}
