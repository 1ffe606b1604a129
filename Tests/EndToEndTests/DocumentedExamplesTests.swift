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
    /// docs/fleet.md's jq line merges the reports of three shards into one in list order, with
    /// the summaries added up.
    func testTheFleetRecipesReportMergeIsOneReportInListOrder() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("docs/fleet.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("    jq -s ") })
        let end = try XCTUnwrap(lines[start...].firstIndex { $0.hasSuffix("> report.json") })
        let merge = lines[start...end].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")

        let list = (0..<12).map { server.url("/file/m\($0).bin?size=50") }.joined(separator: "\n")
        try list.write(to: directory.appendingPathComponent("urls.txt"), atomically: true, encoding: .utf8)
        for shard in 0..<3 {
            let result = try Afget.run(
                ["-q", "-i", "urls.txt", "--shard", "\(shard)/3", "-d", "data", "--report", "shard-\(shard).json"],
                in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let merged = try runShell(merge, in: directory)
        XCTAssertEqual(merged.status, 0, merged.stderr)
        let report = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("report.json")))
                as? [String: Any])
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["id"] as? Int }, Array(0..<12))
        let summary = try XCTUnwrap(report["summary"] as? [String: Any])
        XCTAssertEqual(summary["downloaded"] as? Int, 12)
        XCTAssertEqual(summary["exit"] as? Int, 0)
        XCTAssertEqual(listing(directory.appendingPathComponent("data")).count, 12)
    }
}
