import Foundation
import TestServer
import XCTest

/// A host that never answers a SYN (`Blackhole`): the item is shown connecting to it — a line
/// in a log, an event for scripts, its bar's row on a terminal — instead of nothing for the
/// connect timeout, and it is tried once more, not five times, unless `--retry N` says.
final class ConnectingTests: XCTestCase {
    private var blackhole: Blackhole!
    private var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        blackhole = try Blackhole()
        directory = try makeScratchDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        blackhole = nil
        try super.tearDownWithError()
    }

    private var connectingLine: String { "f.bin: connecting to 127.0.0.1:\(blackhole.port)" }

    func testAnUnansweredHostIsShownConnectingAndTriedOnceMore() throws {
        let url = blackhole.url("/f.bin")
        let result = try Afget.run(["--progress", "line", "--connect-timeout", "2", url], in: directory)
        XCTAssertEqual(result.status, 4, result.stderr)
        let lines = result.stderrLines
        XCTAssertEqual(lines.count, 4, result.stderr)
        XCTAssertEqual(lines.first, connectingLine)
        XCTAssertTrue(lines[1].hasPrefix("afget: \(url): ") && lines[1].hasSuffix("; retrying in 1.0 s (attempt 2)"), lines[1])
        XCTAssertEqual(lines[2], connectingLine)
        XCTAssertTrue(
            lines[3].hasSuffix(
                " (after 2 attempts: a host that has not answered in this run is not retried 5 times; --retry N retries it N times)"
            ),
            lines[3])
        XCTAssertEqual(listing(directory), [])

        // Retries asked for are made, and the failure says only how many.
        let asked = try Afget.run(
            ["--progress", "line", "--connect-timeout", "2", "--retry", "2", "--retry-delay", "0", url], in: directory)
        XCTAssertEqual(asked.status, 4, asked.stderr)
        XCTAssertEqual(asked.stderrLines.filter { $0 == connectingLine }.count, 3, asked.stderr)
        XCTAssertTrue(asked.stderrLines.last?.hasSuffix(" (after 3 attempts)") == true, asked.stderr)
    }

    func testScriptsAreToldOfTheConnectionAwaited() throws {
        let url = blackhole.url("/f.bin")
        let result = try Afget.run(["--progress", "json", "--retry", "0", "--connect-timeout", "2", url], in: directory)
        XCTAssertEqual(result.status, 4, result.stderr)
        let events = result.stdoutText.split(separator: "\n").map { String($0) }
        let connecting = try XCTUnwrap(events.first { $0.contains(#""event":"connecting""#) }, result.stdoutText)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(connecting.utf8)) as? [String: Any])
        XCTAssertEqual(object["host"] as? String, "127.0.0.1:\(blackhole.port)")
        XCTAssertEqual(object["url"] as? String, url)
        XCTAssertEqual(object["path"] as? String, "f.bin")
        let names = events.compactMap { line in
            line.range(of: #""event":"[a-z]+""#, options: .regularExpression).map { String(line[$0]) }
        }
        XCTAssertEqual(names, [#""event":"queued""#, #""event":"connecting""#, #""event":"failed""#, #""event":"summary""#])
    }

    /// On a terminal (tmux, 80 columns) the item's row says what it waits for while it waits,
    /// and is gone from the screen once the run ends.
    func testTheBarsRowSaysConnectingWhileItWaits() throws {
        let tmux = Tmux()
        defer { tmux.kill() }
        let command = "'\(Afget.binary.path)' --retry 0 --connect-timeout 4 '\(blackhole.url("/f.bin"))'"
        try tmux.start(command, session: "c", columns: 80, rows: 8, in: directory, environment: ["NO_COLOR": "1"])
        let row = "f.bin connecting to 127.0.0.1:\(blackhole.port)"
        try waitUntil("the row says it is connecting") { try tmux.capture("c").contains(row) }
        try waitUntil("the run ends") { try tmux.exitStatus("c") != nil }
        XCTAssertEqual(try tmux.exitStatus("c"), 4)
        let screen = try tmux.capture("c", history: true, joined: true)
        XCTAssertFalse(screen.contains(row), "no frame left: \(screen)")
        XCTAssertTrue(screen.contains { $0.hasPrefix("afget: ") && $0.contains("Timeout was reached") }, "\(screen)")
    }
}
