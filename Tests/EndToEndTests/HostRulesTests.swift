import Foundation
import TestServer
import XCTest

/// A batch over several hosts: one host's Retry-After holds its own items only, a host that is
/// down is given up without costing the others, and `--max-per-host` caps a host's connections.
final class HostRulesTests: ServerTestCase {
    private func writeList(_ urls: [String]) throws {
        try urls.joined(separator: "\n").write(
            to: directory.appendingPathComponent("urls.txt"), atomically: true, encoding: .utf8)
    }

    private func reportItems() throws -> [[String: Any]] {
        let data = try Data(contentsOf: directory.appendingPathComponent("report.json"))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        return items.sorted { ($0["id"] as? Int ?? -1) < ($1["id"] as? Int ?? -1) }
    }

    func testARetryAfterHoldsEveryItemOfItsHostWhileAnotherHostsItemsGoOn() throws {
        let busy = server!
        let stderr = try runWithOneHostHeld(
            busy,
            urls: [
                busy.url("/flaky/a1.bin?size=1000&fail=1&mode=429&retryafter=1"), busy.url("/file/a2.bin?size=5000"),
                busy.url("/file/a3.bin?size=6000"),
            ])
        let held = stderr.split(separator: "\n").filter { $0.hasPrefix("afget: http") && $0.contains("asked to wait") }
        XCTAssertEqual(held.count, 1, stderr)
        XCTAssertTrue(held.first?.contains("127.0.0.1:\(busy.port)") == true, stderr)
        XCTAssertTrue(stderr.contains("2 items held back"), "the summary names the host: \(stderr)")
    }

    /// An S3 store's SlowDown (a 503 with its error document, no Retry-After) holds the store's
    /// other items as long as the refused one waits for its retry, with one notice, while
    /// another host's items go on.
    func testAStoresSlowDownHoldsItsOtherItemsForTheRetrysWait() throws {
        let store = server!
        store.change("a1.bin", ["size": "1000", "fail": "1", "mode": "slowdown"])
        // One bucket: the hold is the bucket's. Its other objects never fail.
        store.change("a2.bin", ["size": "5000", "fail": "0"])
        store.change("a3.bin", ["size": "6000", "fail": "0"])
        let stderr = try runWithOneHostHeld(
            store, urls: ["s3://flaky/a1.bin", "s3://flaky/a2.bin", "s3://flaky/a3.bin"],
            arguments: ["--s3-endpoint", store.url(""), "--s3-path-style", "--no-sign-request"])
        let held = stderr.split(separator: "\n").filter { $0.contains("asked for fewer requests (SlowDown)") }
        XCTAssertEqual(held, ["afget: s3://flaky asked for fewer requests (SlowDown): its items wait 1 s"], stderr)
        XCTAssertTrue(
            stderr.contains("  s3://flaky: asked to wait once, 2 items held back"), "the summary names the bucket: \(stderr)")
    }

    /// A list of `urls` (a1, a2, a3 of `busy`, whose first request a1 it refuses for a second)
    /// among another host's items, `-j 2`: every file exact, nothing reached `busy` within the
    /// second after the refusal, while the other host's items, b4 after a2 and a3 in the list
    /// among them, went ahead. Returns afget's standard error.
    private func runWithOneHostHeld(_ busy: TestHTTPServer, urls: [String], arguments: [String] = []) throws -> String {
        let other = try TestHTTPServer()
        let items: [(name: String, size: Int, url: String)] = [
            ("a1", 1000, urls[0]),
            // Held by the server until afget has heard the refusal, so that the busy host's next
            // items are taken from the list only after that.
            ("b1", 2000, other.url("/file/b1.bin?size=2000&holdafter=1000")),
            ("b2", 3000, other.url("/file/b2.bin?size=3000")),
            ("b3", 4000, other.url("/file/b3.bin?size=4000")),
            ("a2", 5000, urls[1]),
            ("a3", 6000, urls[2]),
            ("b4", 7000, other.url("/file/b4.bin?size=7000")),
        ]
        try writeList(items.map(\.url))

        let (process, _, stderrURL) = try Afget.start(
            ["--progress", "line", "-j", "2", "-d", "out"] + arguments + ["-i", "urls.txt"], in: directory)
        try waitUntil("the refusal retried") {
            try String(contentsOf: stderrURL, encoding: .utf8).contains("retrying")
        }
        other.decide("b1.bin", .released)
        process.waitUntilExit()
        let stderr = try String(contentsOf: stderrURL, encoding: .utf8)

        XCTAssertEqual(process.terminationStatus, 0, stderr)
        for (name, size, _) in items {
            XCTAssertEqual(
                sha256Hex(ofFile: directory.appendingPathComponent("out/\(name).bin").path), TestPayload.sha256(count: size),
                name)
        }
        let requests = busy.log.all
        let refused = try XCTUnwrap(requests.first)
        XCTAssertTrue(refused.uri.hasPrefix("/flaky/a1.bin"))
        XCTAssertEqual(requests.count, 4, "a1 twice, a2, a3")
        for request in requests.dropFirst() {
            XCTAssertGreaterThanOrEqual(request.receivedAt - refused.receivedAt, 1.0, "\(request.uri) came early")
        }
        let b4 = try XCTUnwrap(other.log.all.first { $0.uri.hasPrefix("/file/b4.bin") })
        XCTAssertLessThan(b4.receivedAt - refused.receivedAt, 1.0, "b4 waited for the busy host")
        return stderr
    }

    func testAHostThatRefusesEveryConnectionIsGivenUpAndTheOthersFinish() throws {
        let downPort = try freePort()
        var urls: [String] = []
        for index in 1...8 {
            urls.append("http://127.0.0.1:\(downPort)/d\(index).bin")
            if index <= 4 { urls.append(server.url("/file/ok\(index).bin?size=\(index * 1000)")) }
        }
        try writeList(urls)

        let result = try Afget.run(
            ["--progress", "line", "-j", "2", "-d", "out", "-i", "urls.txt", "--report", "report.json"], in: directory)

        XCTAssertEqual(result.status, 4, result.stderr)
        for index in 1...4 {
            XCTAssertEqual(
                sha256Hex(ofFile: directory.appendingPathComponent("out/ok\(index).bin").path),
                TestPayload.sha256(count: index * 1000))
        }
        let notices = result.stderrLines.filter { $0.hasPrefix("afget: giving up on http://127.0.0.1:\(downPort)") }
        XCTAssertEqual(notices.count, 1, result.stderr)
        let down = try reportItems().filter { ($0["url"] as? String)?.contains(":\(downPort)/") == true }
        XCTAssertEqual(down.count, 8)
        let reasons = down.map { (($0["error"] as? [String: Any])?["reason"] as? String) ?? "none" }
        let tried = reasons.filter { $0 == "connect-failed" }.count
        let untried = reasons.filter { $0 == "host-given-up" }.count
        XCTAssertEqual(tried + untried, 8, "\(reasons)")
        XCTAssertGreaterThanOrEqual(tried, 3, "\(reasons)")
        XCTAssertGreaterThanOrEqual(untried, 1, "\(reasons)")
        for item in down { XCTAssertEqual((item["error"] as? [String: Any])?["exit"] as? Int, 4) }
        XCTAssertTrue(result.stderr.contains("not tried"), "the summary counts them: \(result.stderr)")

        // --no-host-give-up tries each one.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("report.json"))
        let everyOne = try Afget.run(
            ["-q", "-j", "2", "-d", "out", "-i", "urls.txt", "--report", "report.json", "--no-host-give-up"], in: directory)
        XCTAssertEqual(everyOne.status, 4, everyOne.stderr)
        XCTAssertFalse(everyOne.stderr.contains("giving up"), everyOne.stderr)
        let again = try reportItems().filter { ($0["url"] as? String)?.contains(":\(downPort)/") == true }
        XCTAssertEqual(
            again.map { ($0["error"] as? [String: Any])?["reason"] as? String }, Array(repeating: "connect-failed", count: 8))
    }

    /// Twelve items of a host whose connections time out, four at a time and none retried: the
    /// host is given up as its third item fails, and from then on nothing of it starts. The
    /// items already admitted — prepared and waiting at the `-j` gate, or still connecting —
    /// end untried with the others, and one that holds an earlier run's data keeps it as it was.
    func testAGivenUpHostStartsNothingMoreAndItsAdmittedItemsEndUntried() throws {
        let blackhole = try Blackhole()
        // Item 6 waits at the gate when the host is given up, with half a file from a run
        // against a server that answered.
        let size = 2_000_000
        try leaveHalfADownload(of: server.url("/flaky/t6.bin?size=\(size)&fail=1&mode=drop"), named: "t6.bin", size: size)
        let resumeData = directory.appendingPathComponent("t6.bin.afresume")
        try pointResumeData(resumeData, to: blackhole.url("/t6.bin"))
        let partBefore = try Data(contentsOf: directory.appendingPathComponent("t6.bin.afpart"))
        let resumeBefore = try Data(contentsOf: resumeData)
        try writeList((1...12).map { blackhole.url("/t\($0).bin") })

        let result = try Afget.run(
            [
                "--progress", "line", "-j", "4", "--retry", "0", "--connect-timeout", "1", "-i", "urls.txt",
                "--report", "report.json",
            ], in: directory)

        XCTAssertEqual(result.status, 4, result.stderr)
        let notices = result.stderrLines.filter { $0.hasPrefix("afget: giving up on \(blackhole.url(""))") }
        XCTAssertEqual(notices.count, 1, result.stderr)
        let reasons = try reportItems().map { (($0["error"] as? [String: Any])?["reason"] as? String) ?? "none" }
        XCTAssertEqual(reasons.count, 12, "\(reasons)")
        // Three timeouts give the host up; a fourth may time out in the same moment. Every
        // item after the first four (-j 4) ends untried, whether it waited at the gate, had
        // just been handed a place there, or was never prepared.
        let timedOut = reasons.filter { $0 == "connect-timeout" }.count
        XCTAssertTrue((3...4).contains(timedOut), "\(reasons)")
        XCTAssertEqual(Array(reasons.dropFirst(4)), Array(repeating: "host-given-up", count: 8), "\(reasons)")
        let untried = reasons.filter { $0 == "host-given-up" }.count
        XCTAssertTrue(
            result.stderrLines.contains { $0.hasSuffix("given up (the connection timed out), \(untried) items not tried") },
            "the summary counts every item not tried: \(result.stderr)")
        for index in 5...12 {
            let said = result.stderrLines.filter { $0.hasPrefix("afget: \(blackhole.url("/t\(index).bin")): ") }
            XCTAssertEqual(
                said,
                [
                    "afget: \(blackhole.url("/t\(index).bin")): not tried: \(blackhole.url("")) was given up for this run (the connection timed out)"
                ],
                result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("t6.bin.afpart")), partBefore)
        XCTAssertEqual(try Data(contentsOf: resumeData), resumeBefore)
    }

    /// Resume data made against the test server, made to name `url` instead (the same file
    /// elsewhere), as an earlier run of `url` would have left it.
    private func pointResumeData(_ resumeData: URL, to url: String) throws {
        let text = try String(contentsOf: resumeData, encoding: .utf8)
        let key = try XCTUnwrap(text.range(of: "<key>NSURLSessionDownloadURL</key>"))
        let open = try XCTUnwrap(text.range(of: "<string>", range: key.upperBound..<text.endIndex))
        let close = try XCTUnwrap(text.range(of: "</string>", range: open.upperBound..<text.endIndex))
        try text.replacingCharacters(in: open.upperBound..<close.lowerBound, with: url)
            .write(to: resumeData, atomically: true, encoding: .utf8)
    }

    func testMaxPerHostKeepsNginxToTwoConnections() throws {
        let nginx = try NginxServer()
        let count = 8
        var urls: [String] = []
        for index in 1...count {
            try Data(repeating: UInt8(index), count: 256 << 10).write(to: nginx.root.appendingPathComponent("f\(index).bin"))
            urls.append(nginx.url("/slow/f\(index).bin"))
        }
        try writeList(urls)

        let result = try Afget.run(
            ["-q", "-j", "8", "-s", "4", "--max-per-host", "2", "-d", "out", "-i", "urls.txt"], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("out")).count, count)
        let responses = nginx.loggedResponses()
        XCTAssertGreaterThanOrEqual(responses.count, count)
        XCTAssertLessThanOrEqual(Set(responses.map(\.connection)).count, 2, "connections nginx saw")
    }

    /// A host that answers 429 with Retry-After to every attempt of an item: each answer is a
    /// wait the host asked for, the last one too (the item gives up there, but the host's other
    /// items still wait as asked), so the summary counts as many as the server sent.
    func testEveryRetryAfterTheHostSentIsCounted() throws {
        let result = try Afget.run(
            [
                "--progress", "line", "--retry", "2", "-d", "out",
                server.url("/flaky/a.bin?size=1000&fail=3&mode=429&retryafter=1"),
                server.url("/file/b.bin?size=1000"),
            ], in: directory)

        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertEqual(server.log.all.filter { $0.uri.hasPrefix("/flaky/a.bin") }.count, 3, "three 429s")
        XCTAssertTrue(
            result.stderrLines.contains { $0.hasPrefix("  \(server.url("")): asked to wait 3 times,") },
            result.stderr)
        // The last answer ended its item and nothing else of the host was left to wait for it:
        // no notice promises that its items wait.
        XCTAssertEqual(result.stderrLines.filter { $0.contains("asked to wait 1 s") }.count, 2, result.stderr)
    }

    func testARateLimitResetIsTakenAsTheServersWait() throws {
        let result = try Afget.run(
            ["--progress", "line", "-d", "out", server.url("/flaky/r.bin?size=1000&fail=1&mode=429&ratelimit=2")],
            in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("out/r.bin").path), TestPayload.sha256(count: 1000))
        XCTAssertTrue(result.stderr.contains("retrying in 2.0 s"), result.stderr)
        XCTAssertTrue(result.stderr.contains("asked to wait 2 s"), result.stderr)
        let requests = server.log.all
        XCTAssertEqual(requests.count, 2)
        XCTAssertGreaterThanOrEqual(requests[1].receivedAt - requests[0].receivedAt, 2.0)
    }
}
