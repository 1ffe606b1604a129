import Foundation
import TestServer
import XCTest

/// Ctrl-Z, then `fg` after longer than `--stall-timeout`: afget is stopped with SIGSTOP in the
/// middle of a body the server holds back, kept stopped for a known time, and continued with
/// SIGCONT. The time it was stopped is nobody's stall.
final class StopAndContinueTests: ServerTestCase {
    let size = 400_000
    /// The server sends this much at once, then holds the rest until the test says.
    let heldAt = 100_000
    let stallTimeout = 2.0
    /// Longer than the stall timeout: the point of these tests.
    let stoppedFor = 3.0

    private var url: String { server.url("/file/held.bin?size=\(size)&holdafter=\(heldAt)") }
    private var destination: URL { directory.appendingPathComponent("held.bin") }

    /// Stopped while the server is silent; continued, the server stays silent for half the
    /// stall timeout (a slow server, not a stalled one), then sends the rest: one request,
    /// no retry, no stall.
    func testStoppedLongerThanTheStallTimeoutThenContinuedFinishesWithoutAStall() throws {
        let (process, stdout, stderr) = try startAndWaitForTheHeldBytes()
        try stop(process, for: stoppedFor)
        Thread.sleep(forTimeInterval: stallTimeout / 2)
        server.decide("held.bin", .released)
        try assertFinishedWithoutAStall(process, stdout: stdout, stderr: stderr)
    }

    /// The server closes the connection while afget is stopped: continued, afget finds it closed
    /// and continues by a range request from the bytes it holds (one retry, not a stall).
    func testAConnectionClosedWhileStoppedIsContinuedByRange() throws {
        let (process, stdout, stderr) = try startAndWaitForTheHeldBytes()
        kill(process.processIdentifier, SIGSTOP)
        waitUntil("afget is stopped") { processState(process) == "T" }
        let stoppedAt = Date()
        server.decide("held.bin", .dropped)
        waitUntil("the server closed the connection") { self.server.heldResponsesDropped == 1 }
        Thread.sleep(forTimeInterval: max(0, stoppedFor - Date().timeIntervalSince(stoppedAt)))
        kill(process.processIdentifier, SIGCONT)
        process.waitUntilExit()

        let errors = try String(contentsOf: stderr, encoding: .utf8)
        let events = try jsonEvents(stdout)
        XCTAssertEqual(process.terminationStatus, 0, errors)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertFalse(errors.contains("stalled"), errors)
        let retries = events.filter { $0["event"] as? String == "retry" }
        XCTAssertEqual(retries.count, 1, "one retry for the closed connection: \(events)")
        XCTAssertFalse((retries.first?["error"] as? String ?? "").contains("stalled"), "\(retries)")

        let requests = server.log.all
        XCTAssertEqual(requests.count, 2, "the first request, then one continue")
        XCTAssertNil(requests.first?.header("Range"))
        XCTAssertEqual(requests.last?.header("Range"), "bytes=\(heldAt)-")
        XCTAssertEqual(requests.last?.header("If-Range"), Route.etag(size: size))
    }

    /// Stopped while waiting for the response headers (the request sent, the server silent):
    /// the headers' clock does not count the stop either.
    func testStoppedWhileWaitingForTheHeadersThenContinuedFinishesWithoutAStall() throws {
        let (process, stdout, stderr) = try Afget.start(
            [
                "--progress", "json", "--stall-timeout", "\(Int(stallTimeout))",
                server.url("/file/held.bin?size=\(size)&holdhead=1"),
            ], in: directory)
        waitUntil("the request reached the server") { self.server.log.all.count == 1 }
        try stop(process, for: stoppedFor)
        Thread.sleep(forTimeInterval: stallTimeout / 2)
        server.decide("held.bin", .released)
        try assertFinishedWithoutAStall(process, stdout: stdout, stderr: stderr)
    }

    // MARK: Helpers

    /// The download ends whole, by its first request: no stall said, no retry.
    private func assertFinishedWithoutAStall(
        _ process: Process, stdout: URL, stderr: URL, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        process.waitUntilExit()
        let errors = try String(contentsOf: stderr, encoding: .utf8)
        let events = try jsonEvents(stdout)
        XCTAssertEqual(process.terminationStatus, 0, errors, file: file, line: line)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size), file: file, line: line)
        XCTAssertFalse(errors.contains("stalled"), errors, file: file, line: line)
        XCTAssertEqual(events.filter { $0["event"] as? String == "retry" }.count, 0, "\(events)", file: file, line: line)
        XCTAssertEqual(server.log.all.count, 1, "the first request finished the file", file: file, line: line)
    }

    /// Starts afget with a short stall timeout and JSON progress, and waits until it has
    /// received every byte the server sends before holding back.
    private func startAndWaitForTheHeldBytes() throws -> (Process, URL, URL) {
        let started = try Afget.start(
            ["--progress", "json", "--stall-timeout", "\(Int(stallTimeout))", url], in: directory)
        waitUntil("afget has received the first \(heldAt) bytes") {
            ((try? jsonEvents(started.stdout)) ?? []).contains {
                $0["event"] as? String == "progress" && $0["bytes"] as? Int == heldAt
            }
        }
        return started
    }

    /// Stops the process (as Ctrl-Z does), keeps it stopped for `seconds`, and continues it (as `fg` does).
    private func stop(_ process: Process, for seconds: Double) throws {
        kill(process.processIdentifier, SIGSTOP)
        waitUntil("afget is stopped") { processState(process) == "T" }
        Thread.sleep(forTimeInterval: seconds)
        kill(process.processIdentifier, SIGCONT)
        waitUntil("afget runs again") { processState(process) != "T" }
    }

    private func jsonEvents(_ file: URL) throws -> [[String: Any]] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}

/// The process's state letter from /proc (R running, S sleeping, T stopped), nil once it is gone.
private func processState(_ process: Process) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
}
