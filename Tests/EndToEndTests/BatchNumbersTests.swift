import Foundation
import Glibc
import TestServer
import XCTest

/// The numbers a batch prints are what happened: bytes that arrived before Ctrl-C are counted,
/// and an item's time and speed start when its request goes out, not while it waits for a place.
final class BatchNumbersTests: ServerTestCase {
    /// Four items held after 100 000 bytes each, then Ctrl-C: the summary said "0 B".
    func testTheSummaryCountsTheBytesOfInterruptedItems() throws {
        let urls = (0..<4).map { server.url("/file/held\($0).bin?size=1000000&holdafter=100000") }
        try (urls.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("urls.txt"), atomically: true, encoding: .utf8)
        let (process, stdout, _) = try Afget.start(["--progress", "json", "-j", "4", "-i", "urls.txt"], in: directory)
        defer { if process.isRunning { process.terminate() } }
        waitUntil("afget has every item's first 100 000 bytes") {
            let events = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
            return (0..<4).allSatisfy { id in
                events.contains("\"event\":\"progress\",\"id\":\(id),")
                    && events.split(separator: "\n").contains {
                        $0.contains("\"id\":\(id),") && $0.contains("\"bytes\":100000,")
                    }
            }
        }
        let summary = try summaryAfterCtrlC(process, events: stdout)
        XCTAssertTrue(summary.contains("\"interrupted\":4,"), summary)
        XCTAssertTrue(summary.contains("\"bytes\":400000,"), summary)
    }

    /// A split download stopped by Ctrl-C counts what its segments received: the first range
    /// held at 100 000 bytes, the other segments whole.
    func testTheSummaryCountsTheBytesOfAnInterruptedSplitDownload() throws {
        let size = 2_000_000
        let firstRange = 4 * 128 * 1024
        let received = 100_000 + (size - firstRange)
        let url = server.url("/file/split.bin?size=\(size)&holdafter=100000")
        let (process, stdout, _) = try Afget.start(
            ["--progress", "json", "-s", "4", "--min-split-size", "128K", url], in: directory)
        defer { if process.isRunning { process.terminate() } }
        waitUntil("the segments hold every byte but the first range's held rest") {
            ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").contains("\"bytes\":\(received),")
        }
        let summary = try summaryAfterCtrlC(process, events: stdout)
        XCTAssertTrue(summary.contains("\"interrupted\":1,"), summary)
        XCTAssertTrue(summary.contains("\"bytes\":\(received),"), summary)
    }

    /// Sends SIGINT, then the JSON summary the stopped run printed last (exit 130 asserted).
    private func summaryAfterCtrlC(_ process: Process, events: URL) throws -> String {
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        return try String(contentsOf: events, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
    }

    /// With one place (`-j 1`) the second item waits for the first, which takes a second and a
    /// half; its done line counted that wait ("in 1.5 s, 65 KiB/s" for a body that took none).
    func testAnItemIsTimedFromItsRequestNotFromItsWaitForAPlace() throws {
        let slow = server.url("/file/slow.bin?size=150000&chunk=10000&ms=100")
        let quick = server.url("/file/quick.bin?size=100000")
        let result = try Afget.run(["--progress", "line", "-j", "1", slow, quick], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let done = try XCTUnwrap(result.stderrLines.first { $0.hasPrefix("quick.bin: done") }, result.stderr)
        // "in 340 ms" below a second, "in 1.5 s" above.
        let took = try XCTUnwrap(done.firstMatch(of: /\sin (\d+(?:\.\d)?) (ms|s),/), done)
        let seconds = try XCTUnwrap(Double(took.1), done) / (took.2 == "ms" ? 1000 : 1)
        XCTAssertLessThan(seconds, 0.8, done)
    }
}
