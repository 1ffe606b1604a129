import Foundation
import TestServer
import XCTest

/// What progress looks like on a terminal, in a log, and for scripts.
final class ProgressOutputTests: ServerTestCase {
    /// A download that takes about a second, so a terminal bar is redrawn several times.
    private var slowURL: String { server.url("/drip/slow.bin?size=200000&chunk=20000&ms=100") }

    func testTerminalGetsALiveBarThatIsCleanedUp() throws {
        // script(1) runs afget on a pseudo-terminal and copies what it draws.
        let (status, drawn) = try runInPseudoTerminal("\(Afget.binary.path) '\(slowURL)'", in: directory)

        XCTAssertEqual(status, 0, drawn)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("slow.bin").path), TestPayload.sha256(count: 200_000))
        let frames = drawn.components(separatedBy: "\r").filter { $0.contains("% [") }
        XCTAssertGreaterThanOrEqual(frames.count, 2, "the bar is redrawn in place: \(drawn.debugDescription)")
        XCTAssertTrue(frames.contains { $0.hasPrefix("slow.bin") && $0.contains("KiB/s") }, drawn.debugDescription)
        XCTAssertNotNil(
            drawn.range(of: #"\rslow\.bin: done, [^\r\n]*\x1B\[K"#, options: .regularExpression),
            "the final line is written over the bar's row, the rest of the row erased: \(drawn.debugDescription)")
        XCTAssertTrue(drawn.contains("slow.bin: done, 195.3 KiB"), drawn.debugDescription)
        XCTAssertFalse(drawn.contains("\u{1B}[32m"), "NO_COLOR is honoured")
    }

    func testNonTerminalProgressIsWholeLines() throws {
        let result = try Afget.run([slowURL], in: directory)  // auto: stderr is a file here
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("\r"), result.stderr.debugDescription)
        XCTAssertFalse(result.stderr.contains("\u{1B}"), result.stderr.debugDescription)
        XCTAssertTrue(result.stderrLines.first?.hasPrefix("slow.bin: started (195.3 KiB) from http://") ?? false, result.stderr)
        XCTAssertTrue(result.stderrLines.last?.hasPrefix("slow.bin: done, 195.3 KiB in ") ?? false, result.stderr)
    }

    /// A log's lines name the item one way from start to end: the path its data goes to, or
    /// "(stdout)" for -o -.
    func testLinesNameTheItemByWhereItsDataGoes() throws {
        let url = server.url("/file/named.bin?size=5000")
        let intoDirectory = try Afget.run(["-d", "sub", url], in: directory)
        XCTAssertEqual(intoDirectory.status, 0, intoDirectory.stderr)
        XCTAssertTrue(
            intoDirectory.stderrLines.first?.hasPrefix("sub/named.bin: started (4.9 KiB) from http://") ?? false,
            intoDirectory.stderr)
        XCTAssertTrue(
            intoDirectory.stderrLines.last?.hasPrefix("sub/named.bin: done, 4.9 KiB in ") ?? false, intoDirectory.stderr)

        let toStandardOutput = try Afget.run(["-o", "-", url], in: directory)
        XCTAssertEqual(toStandardOutput.status, 0, toStandardOutput.stderr)
        XCTAssertEqual(toStandardOutput.stdout.count, 5000)
        XCTAssertTrue(
            toStandardOutput.stderrLines.first?.hasPrefix("(stdout): started (4.9 KiB) from http://") ?? false,
            toStandardOutput.stderr)
        XCTAssertTrue(
            toStandardOutput.stderrLines.last?.hasPrefix("(stdout): done, 4.9 KiB in ") ?? false, toStandardOutput.stderr)
    }

    func testJSONProgressIsOneObjectPerLineOnStdout() throws {
        let result = try Afget.run(["--progress", "json", slowURL, server.url("/status/404")], in: directory)
        XCTAssertEqual(result.status, 8)

        let objects = try result.stdoutText.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let events = objects.compactMap { $0["event"] as? String }
        XCTAssertEqual(events.first, "queued")
        XCTAssertTrue(events.contains("started"))
        XCTAssertTrue(events.contains("progress"))
        XCTAssertEqual(events.filter { $0 == "done" }.count, 1)
        XCTAssertEqual(events.last, "summary")

        let firstProgress = try XCTUnwrap(objects.first { $0["event"] as? String == "progress" })
        XCTAssertGreaterThan((firstProgress["speed"] as? NSNumber)?.doubleValue ?? 0, 0, "the first report has a speed")
        let done = try XCTUnwrap(objects.first { $0["event"] as? String == "done" })
        XCTAssertEqual(done["id"] as? Int, 0)
        XCTAssertEqual(done["bytes"] as? Int, 200_000)
        XCTAssertEqual(done["path"] as? String, "slow.bin")
        let failed = try XCTUnwrap(objects.first { $0["event"] as? String == "failed" })
        XCTAssertEqual(failed["id"] as? Int, 1)
        XCTAssertEqual(failed["exit"] as? Int, 8)
        XCTAssertEqual(failed["class"] as? String, "http")
        let summary = try XCTUnwrap(objects.last)
        XCTAssertEqual(summary["downloaded"] as? Int, 1)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["exit"] as? Int, 8)
        XCTAssertEqual(result.stderrLines.count, 1, "the failure is told to people on stderr too")
    }

    /// Items are queued in input order as the run takes them up (a list is streamed, not
    /// queued whole up front), each before it starts.
    func testEachItemIsQueuedInInputOrderBeforeItStarts() throws {
        let urls = (0..<3).map { server.url("/file/b\($0).bin?size=1000") }
        let result = try Afget.run(["--progress", "json", "-j", "1"] + urls, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = try result.stdoutText.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let queued = objects.filter { $0["event"] as? String == "queued" }
        XCTAssertEqual(queued.map { $0["id"] as? Int }, [0, 1, 2], result.stdoutText)
        XCTAssertEqual(queued.map { $0["path"] as? String }, ["b0.bin", "b1.bin", "b2.bin"])
        for id in 0..<3 {
            let events = objects.filter { $0["id"] as? Int == id }.map { $0["event"] as? String }
            XCTAssertEqual(events.first, "queued", "item \(id): \(events)")
            XCTAssertEqual(events.last, "done", "item \(id): \(events)")
        }
    }

    /// A body too quick for a progress sample still ends with a progress event of all its
    /// bytes, so a bar shows 100% while the file is moved into place.
    func testTheLastProgressEventCountsTheWholeBody() throws {
        let result = try Afget.run(["--progress", "json", server.url("/file/quick.bin?size=1000")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = try result.stdoutText.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let events = objects.compactMap { $0["event"] as? String }
        let done = try XCTUnwrap(events.firstIndex(of: "done"), result.stdoutText)
        XCTAssertEqual(events[done - 1], "progress", result.stdoutText)
        XCTAssertEqual(objects[done - 1]["bytes"] as? Int, 1000)
        XCTAssertEqual(objects[done - 1]["total"] as? Int, 1000)
    }

    func testJSONProgressMovesToStderrWhenStdoutCarriesData() throws {
        let result = try Afget.run(["--progress", "json", "-o", "-", server.url("/file/x?size=1000")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(result.stdout), TestPayload.sha256(count: 1000))
        XCTAssertTrue(result.stderr.contains("\"event\":\"done\""), result.stderr)
    }

    func testVerboseShowsHeadersWithSecretsMasked() throws {
        let result = try Afget.run(
            ["-v", "--progress", "none", "-H", "Authorization: Bearer top-secret", server.url("/file/v.bin?size=10")],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("> GET /file/v.bin?size=10 HTTP/1.1"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> Authorization: Bearer ***"), result.stderr)
        XCTAssertTrue(result.stderr.contains("< HTTP/1.1 200 OK"), result.stderr)
        XCTAssertFalse(result.stderr.contains("top-secret"), result.stderr)
        XCTAssertTrue(result.stdout.isEmpty)
    }

    /// A response header that only sounds like a secret is shown as sent; the user's own secret
    /// header is masked on the way out.
    func testVerboseShowsWhatTheServerSaidUnlessItIsACredential() throws {
        let url = server.url("/headers?count=0&add=Access-Control-Allow-Credentials:true")
        let result = try Afget.run(
            ["-v", "--progress", "none", "-H", "X-Api-Key: k3y-secret", "-o", "h.txt", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("< Access-Control-Allow-Credentials: true"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> X-Api-Key: ***"), result.stderr)
        XCTAssertFalse(result.stderr.contains("k3y-secret"), result.stderr)
    }
}
