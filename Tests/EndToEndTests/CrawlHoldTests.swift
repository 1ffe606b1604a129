import Foundation
import TestServer
import XCTest

/// A site whose host answers some of its files 503 or 429 with Retry-After in the middle of a
/// crawl (issue 54): the crawl holds the host as a list does, then finishes every file exact,
/// with exit status 0 and the waits counted in the summary. nginx serves the pages and hands
/// /file/ and /flaky/ to the test server, which scripts the answers, so the whole site is one host.
final class CrawlHoldTests: ServerTestCase {
    private var nginx: NginxServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        nginx = try NginxServer(
            locations: """
                location /file/ { proxy_pass http://127.0.0.1:\(server.port); }
                location /flaky/ { proxy_pass http://127.0.0.1:\(server.port); }
                """)
    }

    override func tearDownWithError() throws {
        nginx = nil
        try super.tearDownWithError()
    }

    private func page(_ path: String, linking links: [String]) throws {
        let body = links.map { "<a href=\"\($0)\">\($0)</a>" }.joined(separator: "\n")
        let file = nginx.root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<!DOCTYPE html>\n<html><body>\n\(body)\n</body></html>\n".utf8).write(to: file)
    }

    func testABusyHostIsHeldThenEveryFileOfTheCrawlArrivesExact() throws {
        // Sizes by name; a.bin is answered 503 once, d.bin 429 once and f.bin 503 twice, each
        // asking for a second.
        let sizes = ["a": 11_000, "b": 12_000, "c": 13_000, "d": 14_000, "e": 15_000, "f": 16_000]
        for (name, size) in sizes { server.change(name + ".bin", ["size": "\(size)"]) }
        server.change("a.bin", ["size": "11000", "fail": "1", "mode": "503", "retryafter": "1"])
        server.change("d.bin", ["size": "14000", "fail": "1", "mode": "429", "retryafter": "1"])
        server.change("f.bin", ["size": "16000", "fail": "2", "mode": "503", "retryafter": "1"])
        try page("site/index.html", linking: ["/flaky/a.bin", "/file/b.bin", "/file/c.bin", "more.html"])
        try page("site/more.html", linking: ["index.html", "/flaky/d.bin", "/file/e.bin", "/flaky/f.bin"])

        // One at a time, so that nginx's log is in the order afget asked.
        let result = try Afget.run(
            ["--progress", "line", "-j", "1", "-r", "-d", "out", nginx.url("/site/index.html")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        let saved = directory.appendingPathComponent("out/127.0.0.1:\(nginx.port)")
        for (name, size) in sizes {
            let folder = ["a", "d", "f"].contains(name) ? "flaky" : "file"
            XCTAssertEqual(
                sha256Hex(ofFile: saved.appendingPathComponent("\(folder)/\(name).bin").path),
                TestPayload.sha256(count: size), name)
        }
        // Six files and two pages; robots.txt, which nginx has none of, skipped and no failure.
        XCTAssertTrue(result.stderr.contains("afget: 8 downloaded, 1 skipped, 0 failed;"), result.stderr)
        XCTAssertTrue(result.stderr.contains("; 2 pages read, 0 links skipped by rule"), result.stderr)
        // The four answers that asked to wait, each a hold of the host, counted once each.
        XCTAssertTrue(
            result.stderrLines.contains { $0.hasPrefix("  \(nginx.url("")): asked to wait 4 times,") },
            result.stderr)

        // Each answer that asked for a second held the host: nothing of it was answered
        // sooner after (nginx logs a response as it ends; 0.9 for its millisecond clock).
        let requests = nginx.loggedRequests()
        XCTAssertEqual(requests.filter { $0.status == 503 || $0.status == 429 }.count, 4, "\(requests)")
        for (index, request) in requests.enumerated() where request.status == 503 || request.status == 429 {
            if let next = requests.dropFirst(index + 1).first {
                XCTAssertGreaterThanOrEqual(next.time - request.time, 0.9, "\(next.uri) after \(request.uri)'s wait")
            }
        }
        // Every file asked for once more than the times it was turned away, and no more.
        let asked = requests.reduce(into: [String: Int]()) { $0[$1.uri, default: 0] += 1 }
        XCTAssertEqual(
            asked,
            [
                "/robots.txt": 1, "/site/index.html": 1, "/site/more.html": 1, "/flaky/a.bin": 2, "/file/b.bin": 1,
                "/file/c.bin": 1, "/flaky/d.bin": 2, "/file/e.bin": 1, "/flaky/f.bin": 3,
            ])
    }
}
