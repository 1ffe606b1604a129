import Foundation
import TestServer
import XCTest

/// The report says why each item failed as a code with its data, beside the class and the words:
/// what a script acts on without reading prose.
final class FailureReasonReportTests: ServerTestCase {
    func testEachFailureCarriesItsReasonAndData() throws {
        try """
        \(server.url("/status/404"))
          out=missing.bin
        \(server.url("/file/big.bin?size=6000"))
        \(server.url("/drop?size=3000&after=2000"))
          out=short.bin
        \(server.url("/file/wrong.bin?size=2000"))
          checksum=sha-256=\(String(repeating: "0", count: 64))
        """.write(to: directory.appendingPathComponent("urls.txt"), atomically: true, encoding: .utf8)

        let result = try Afget.run(
            ["-q", "--retry", "0", "--max-size", "5000", "-d", "out", "-i", "urls.txt", "--report", "report.json"],
            in: directory)

        XCTAssertEqual(result.status, 4, result.stderr)
        let data = try Data(contentsOf: directory.appendingPathComponent("report.json"))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try XCTUnwrap(report["items"] as? [[String: Any]]).sorted { ($0["id"] as! Int) < ($1["id"] as! Int) }
        let errors = items.map { $0["error"] as? [String: Any] ?? [:] }
        XCTAssertEqual(errors.map { $0["reason"] as? String }, ["http-status", "too-large", "body-short", "checksum-mismatch"])
        XCTAssertEqual(errors[0]["status"] as? Int, 404)
        XCTAssertEqual(errors[1]["limit"] as? Int, 5000)
        XCTAssertEqual(errors[2]["received"] as? Int, 2000)
        XCTAssertEqual(errors[2]["expected"] as? Int, 3000)
        XCTAssertEqual(errors.map { $0["exit"] as? Int }, [8, 7, 4, 10], "the class still decides the exit status")
    }

    /// A retry's JSON event carries its failure's code and data, as the failure's own event
    /// does: a script sees why an item is retried without reading the words.
    func testARetryEventCarriesItsReasonAndData() throws {
        let result = try Afget.run(
            ["--progress", "json", "--retry", "1", "--retry-delay", "0", "-o", "x.bin", server.url("/status/503")],
            in: directory)

        XCTAssertEqual(result.status, 8, result.stderr)
        let events = result.stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let retry = try XCTUnwrap(events.first { $0["event"] as? String == "retry" }, result.stdoutText)
        XCTAssertEqual(retry["reason"] as? String, "http-status")
        XCTAssertEqual(retry["status"] as? Int, 503)
        XCTAssertEqual(retry["error"] as? String, "HTTP 503 Service Unavailable")
        let failed = try XCTUnwrap(events.first { $0["event"] as? String == "failed" }, result.stdoutText)
        XCTAssertEqual(failed["reason"] as? String, "http-status")
        XCTAssertEqual(failed["status"] as? Int, 503)
    }
}
