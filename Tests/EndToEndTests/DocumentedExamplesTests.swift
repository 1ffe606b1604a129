import Foundation
import TestServer
import XCTest

/// The `afget request` examples of README.md and afget(1) run as printed, against the echo
/// route in place of the example hosts, so an example cannot lie: one described as a GET sent
/// a POST.
final class DocumentedExamplesTests: ServerTestCase {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// README's indented example lines, continuation lines joined.
    private func readmeExamples() throws -> [String] {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [String] = []
        var pending: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let start = pending {
                pending = nil
                let joined = start + " " + trimmed
                if joined.hasSuffix("\\") { pending = String(joined.dropLast()) } else { examples.append(joined) }
            } else if line.hasPrefix("    afget request ") {
                if trimmed.hasSuffix("\\") { pending = String(trimmed.dropLast()) } else { examples.append(trimmed) }
            }
        }
        return examples
    }

    /// afget(1)'s EXAMPLES lines, roff escapes undone.
    private func manualExamples() throws -> [String] {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("man/afget.1"), encoding: .utf8)
        guard let examples = text.range(of: ".SH EXAMPLES") else { return [] }
        return text[examples.upperBound...].split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("afget request ") }
            .map { $0.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(dq", with: "\"") }
    }

    func testEveryRequestExampleRunsAndDoesWhatItsCommentSays() throws {
        try Data("%PDF-1.4 report".utf8).write(to: directory.appendingPathComponent("q3.pdf"))
        try Data("a,b\n1,2\n".utf8).write(to: directory.appendingPathComponent("data.csv"))
        // Lines naming a server (the overview's "afget request POST URL ..." is a synopsis).
        let examples = try (readmeExamples() + manualExamples()).filter { $0.contains("example.org") }
        XCTAssertGreaterThanOrEqual(examples.count, 8, "\(examples)")
        for example in examples {
            let command =
                example
                .replacingOccurrences(of: "https://api.example.org", with: server.url("/echo"))
                .replacingOccurrences(of: "https://upload.example.org", with: server.url("/echo"))
                .replacingOccurrences(of: "https://example.org", with: server.url("/echo"))
            XCTAssertFalse(command.contains("example.org"), command)
            let before = server.log.all.count
            let (status, stderr) = try runShell("'\(Afget.binary.path)'" + command.dropFirst("afget".count), in: directory)
            XCTAssertEqual(status, 0, "\(example): \(stderr)")
            let sent = try XCTUnwrap(server.log.all.dropFirst(before).last, example)
            // "# GET ?page=2&q=swift": the method, and the query string, as the comment says.
            guard let comment = example.range(of: "# ").map({ example[$0.upperBound...] }) else { continue }
            let words = comment.split(separator: " ")
            if let method = words.first, ["GET", "POST", "PUT", "DELETE"].contains(String(method)) {
                XCTAssertEqual(sent.method, String(method), example)
            }
            if let query = words.first(where: { $0.hasPrefix("?") }) {
                XCTAssertTrue(sent.uri.hasSuffix(String(query)), "\(example): sent \(sent.uri)")
            }
        }
    }
}
