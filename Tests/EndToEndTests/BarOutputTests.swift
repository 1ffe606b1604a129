import Foundation
import Glibc
import TestServer
import XCTest

/// Bars on a terminal: lines that fit the window's width, a block that fits its height and
/// leaves no stale frames behind, upload responses kept apart from the bars, a continue said
/// as a log says it, and items named alike while running and when done.
final class BarOutputTests: ServerTestCase {
    /// The lines of every frame drawn (each ends with ESC[K), cursor moves, erasing and
    /// colour removed.
    private func frameLines(_ drawn: String) -> [String] {
        drawn.components(separatedBy: "\u{1B}[K").dropLast().map { piece in
            var line = Substring(piece)
            for separator in ["\n", "\r"] {
                if let range = line.range(of: separator, options: .backwards) { line = line[range.upperBound...] }
            }
            return line.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        }
    }

    private func dripURL(_ name: String, size: Int = 300_000) -> String {
        server.url("/file/\(name)?size=\(size)&chunk=30000&ms=100")
    }

    /// At 50 columns each item's line keeps percent, speed and ETA, and no line of the block is
    /// wider than the window.
    func testABatchOnA50ColumnTerminalKeepsPercentSpeedAndETA() throws {
        let names = (0..<3).map { "quarterly-report-2026-part-\($0).pdf" }
        let urls = names.map { "'" + dripURL($0) + "'" }.joined(separator: " ")
        let (status, drawn) = try runInPseudoTerminal(
            "\(Afget.binary.path) -j 3 \(urls)", in: directory, size: (50, 24))
        XCTAssertEqual(status, 0, drawn)
        let lines = frameLines(drawn)
        let itemLines = lines.filter { !$0.hasPrefix("[") && !$0.contains(": ") }
        XCTAssertGreaterThanOrEqual(itemLines.count, 3, drawn.debugDescription)
        for line in lines {
            XCTAssertLessThanOrEqual(TerminalScreen.columns(of: line), 49, "wider than the window: \(line.debugDescription)")
        }
        for line in itemLines {
            XCTAssertNotNil(line.range(of: #"\d+% "#, options: .regularExpression), "percent: \(line.debugDescription)")
            XCTAssertTrue(line.contains("/s"), "speed: \(line.debugDescription)")
            XCTAssertNotNil(
                line.range(of: #"ETA (\d+:\d\d|--:--)$"#, options: .regularExpression), "ETA: \(line.debugDescription)")
        }
    }

    /// More items than the window has rows, with names of wide characters: the cursor never
    /// moves up past the window's top, the block collapses to the total line, and no frame is
    /// left on the screen or pushed into the scrollback.
    func testABatchTallerThanTheWindowLeavesNoStaleFrames() throws {
        let urls = (0..<12).map { "'" + dripURL("%E6%95%B0%E6%8D%AE%E6%96%87%E4%BB%B6-\($0).bin") + "'" }
        let (status, drawn) = try runInPseudoTerminal(
            "\(Afget.binary.path) -j 12 " + urls.joined(separator: " "), in: directory, size: (50, 8))
        XCTAssertEqual(status, 0, drawn)
        XCTAssertTrue(drawn.contains("[0/12]"), drawn.debugDescription)
        XCTAssertTrue(drawn.contains("12 downloaded, 0 skipped, 0 failed"), drawn.debugDescription)

        var terminal = TerminalScreen(columns: 50, rows: 8)
        terminal.feed(drawn)
        XCTAssertEqual(terminal.movesPastTheTop, 0, "moves up: \(terminal.upwardMoves)")
        XCTAssertTrue(terminal.upwardMoves.allSatisfy { $0 <= 7 }, "moves up: \(terminal.upwardMoves)")
        let frame = try NSRegularExpression(pattern: #"\d+%|^\[\d+/12\]"#)
        let stale = (terminal.scrollback + terminal.screen).filter {
            frame.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
        }
        XCTAssertEqual(stale, [], "stale frames: scrollback \(terminal.scrollback), screen \(terminal.screen)")
    }

    /// Three files uploaded with bars on the terminal that also shows stdout: each response
    /// body is written whole where the block was cleared, after its file's bar is gone; the
    /// total line counts files.
    func testUploadResponsesWaitUntilTheirBarIsDone() throws {
        var responses: [String] = []
        for index in 0..<3 {
            let data = Data(TestPayload.bytes(0..<(150_000 + index)))
            try data.write(to: directory.appendingPathComponent("u\(index).bin"))
            responses.append("\(data.count) \(sha256Hex(data))")
        }
        let (status, drawn) = try runInPseudoTerminal(
            "\(Afget.binary.path) upload --limit-rate 300K u0.bin u1.bin u2.bin '\(server.url("/upload/"))'",
            in: directory, size: (100, 24))
        XCTAssertEqual(status, 0, drawn)
        XCTAssertTrue(drawn.contains("[3/3]"), "the total line counts files: \(drawn.debugDescription)")
        XCTAssertFalse(drawn.contains("/1] "), drawn.debugDescription)
        for (index, response) in responses.enumerated() {
            XCTAssertEqual(drawn.components(separatedBy: response).count, 2, "once: \(drawn.debugDescription)")
            XCTAssertTrue(
                drawn.contains("\u{1B}[2K" + response + "\r\n"),
                "written whole, on a cleared line: \(drawn.debugDescription)")
            let after = drawn.components(separatedBy: response).last ?? ""
            XCTAssertEqual(
                frameLines(after).filter { $0.hasPrefix("u\(index).bin") && !$0.contains(": done") }, [],
                "no bar of u\(index).bin after its response")
        }
        XCTAssertTrue(frameLines(drawn).contains { $0.hasPrefix("u0.bin") && $0.contains("% [") }, drawn.debugDescription)
    }

    /// Stopped with Ctrl-C, the same command on a terminal says where it continues, as a log does.
    func testARerunInBarModeSaysWhereItContinues() throws {
        let url = server.url("/file/big.bin?size=2000000&chunk=20000&ms=20")
        let (process, _, _) = try Afget.start(["-q", url], in: directory)
        waitUntil("a checkpoint") {
            (checkpointedBytes(directory.appendingPathComponent("big.bin.afresume")) ?? 0) > 100_000
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)

        let (status, drawn) = try runInPseudoTerminal("\(Afget.binary.path) '\(url)'", in: directory)
        XCTAssertEqual(status, 0, drawn)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), TestPayload.sha256(count: 2_000_000))
        let continuing = try XCTUnwrap(
            drawn.range(
                // At 80 columns, less the two kept free, the URL (kept at 24 columns or not at
                // all) fits only beside a short percent and size.
                of: #"big\.bin: continuing at \d+% \([0-9.]+ [KM]iB of 1\.9 MiB\)( from http://|\x{1B}\[K)"#,
                options: .regularExpression),
            drawn.debugDescription)
        let bar = try XCTUnwrap(drawn.range(of: "% ["), drawn.debugDescription)
        XCTAssertLessThan(continuing.lowerBound, bar.lowerBound, "said above the bar, before it is drawn")
    }

    /// The bar and the done line name the item the same way: where its data goes.
    func testRunningAndDoneLinesNameTheItemAlike() throws {
        let url = server.url("/file/slow.bin?size=200000&chunk=20000&ms=100")
        let (status, drawn) = try runInPseudoTerminal("\(Afget.binary.path) -d sub '\(url)'", in: directory)
        XCTAssertEqual(status, 0, drawn)
        let bars = frameLines(drawn).filter { $0.contains("% [") }
        XCTAssertGreaterThanOrEqual(bars.count, 2, drawn.debugDescription)
        XCTAssertTrue(bars.allSatisfy { $0.hasPrefix("sub/slow.bin ") }, "\(bars)")
        XCTAssertTrue(drawn.contains("sub/slow.bin: done, 195.3 KiB"), drawn.debugDescription)
    }
}
