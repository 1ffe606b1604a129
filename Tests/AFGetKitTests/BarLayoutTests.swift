@testable import AFGetProgress
@testable import AFGetSupport
import Glibc
import XCTest

/// What fits in a terminal: each line's layout at every width, and the block in a window of
/// few rows.
final class BarLayoutTests: XCTestCase {
    private let names = [
        "ubuntu-24.04-desktop-amd64.iso", "downloads/数据文件-二〇二六年-最终版本.tar.gz", "🎉-party-photos.zip", "a",
    ]

    func testDisplayWidthCountsColumnsNotCharactersOrBytes() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("数据"), 4)
        XCTAssertEqual(DisplayWidth.of("🎉"), 2)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1, "a combining mark takes no column")
        XCTAssertEqual(DisplayWidth.shortenedPath("dir/数据.bin", columns: 8), "…据.bin")
        XCTAssertEqual(DisplayWidth.shortened("abcdef", columns: 4), "abc…")
    }

    /// Down to 40 columns every line keeps percent, speed and ETA; the name gives way first,
    /// then the bar. Below 40 it is one short line, its figures in their widest forms' widths
    /// while they fit. No line is wider than the terminal less two columns: the cursor's, and
    /// the last, where a Ctrl-C's `^C` echo ends.
    func testALineFitsEveryWidthAndKeepsPercentSpeedAndETA() {
        for columns in [120, 80, 50, 45, 40, 39, 20] {
            let layout = BarLayout(columns: columns, useColor: false)
            for name in names {
                let line = layout.line(name: name, bytes: 512 << 20, total: 1 << 30, speed: 8 * 1024 * 1024)
                XCTAssertLessThanOrEqual(DisplayWidth.of(line), columns - 2, "\(columns): \(line)")
                XCTAssertFalse(line.contains("\n"), line)
                XCTAssertTrue(line.contains("50%"), "\(columns): \(line)")
                XCTAssertTrue(line.contains("8.0 MiB/s"), "\(columns): \(line)")
                XCTAssertTrue(line.contains("1:04"), "\(columns): \(line)")
                if columns >= 40 {
                    XCTAssertTrue(line.contains("ETA 1:04"), "\(columns): \(line)")
                    XCTAssertTrue(line.hasPrefix(String(name.prefix(1))) || line.hasPrefix("…"), "named: \(line)")
                } else {
                    let short = columns == 39 ? " 50%    8.0 MiB/s     1:04" : "50% 8.0 MiB/s 1:04"
                    XCTAssertEqual(line, short, "one short line at \(columns)")
                }
                if columns >= 80 { XCTAssertTrue(line.contains(" ["), "a bar at \(columns): \(line)") }
                if columns >= 80 { XCTAssertTrue(line.contains("512.0 MiB/   1.0 GiB"), "figures at \(columns): \(line)") }
            }
        }
        // The name is cut from its start, so the file's own name stays in sight.
        let cut = BarLayout(columns: 50, useColor: false).line(
            name: "downloads/2026/ubuntu-24.04-desktop-amd64.iso", bytes: 1, total: 2, speed: 1)
        XCTAssertTrue(cut.hasPrefix("…"), cut)
        XCTAssertTrue(cut.contains("64.iso"), cut)
        // A whole name is not cut while the bar can still shrink.
        let whole = BarLayout(columns: 80, useColor: false).line(name: "short.iso", bytes: 1, total: 2, speed: 1)
        XCTAssertTrue(whole.hasPrefix("short.iso  50% ["), whole)
    }

    func testALineOfUnknownLengthFitsToo() {
        for columns in [80, 40, 39, 20] {
            let line = BarLayout(columns: columns, useColor: false).line(
                name: names[1], bytes: 3 << 20, total: nil, speed: 1024)
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), columns - 2, line)
            XCTAssertTrue(line.contains("1.0 KiB/s"), line)
        }
    }

    func testTheBlockFitsTheWindowOrCollapsesToTheTotalLine() {
        let items = (0..<3).map { LiveBlock.Item(name: "f\($0).bin", bytes: 1, total: 2, speed: 1) }
        let roomy = LiveBlock(size: TerminalSize(columns: 80, rows: 5), useColor: false)
        XCTAssertEqual(roomy.lines(items: items, totalLine: "[0/3] 3 B 3 B/s").count, 4)
        // Four lines need five rows: in four, only the total line is drawn.
        let short = LiveBlock(size: TerminalSize(columns: 80, rows: 4), useColor: false)
        XCTAssertEqual(short.lines(items: items, totalLine: "[0/3] 3 B 3 B/s"), ["[0/3] 3 B 3 B/s"])
        let oneRow = LiveBlock(size: TerminalSize(columns: 80, rows: 1), useColor: false)
        XCTAssertEqual(oneRow.lines(items: items, totalLine: "[0/3] 3 B 3 B/s"), ["[0/3] 3 B 3 B/s"])
        XCTAssertEqual(oneRow.lines(items: Array(items.prefix(1)), totalLine: nil).count, 1)
        // Narrower than 40 columns: one short line, cut to the width.
        let narrow = LiveBlock(size: TerminalSize(columns: 12, rows: 24), useColor: false)
        XCTAssertEqual(narrow.lines(items: items, totalLine: "[0/3] 3 B 3 B/s ETA 0:01"), ["[0/3] 3 B…"])
        XCTAssertEqual(
            LiveBlock(size: TerminalSize(columns: 30, rows: 24), useColor: false).lines(
                items: items, totalLine: "[0/3] 1.5 MiB 512.0 KiB/s ETA 0:01", shortTotalLine: "[0/3] 512.0 KiB/s ETA 0:01"),
            ["[0/3] 512.0 KiB/s ETA 0:01"], "the byte count gives way to the ETA")
        XCTAssertEqual(narrow.lines(items: Array(items.prefix(1)), totalLine: nil), ["50% 1 B/s"], "whole figures only")
    }

    /// The renderer itself, drawing into a file: a block taller than the window is never
    /// drawn, and after the window is made shorter the cursor goes up no further than it has
    /// rows.
    func testTheRendererNeverMovesUpPastTheWindow() throws {
        let path = NSTemporaryDirectory() + "bars-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
        let descriptor = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        final class Window { var size = TerminalSize(columns: 80, rows: 30) }
        let window = Window()
        let renderer = BarRenderer(
            stream: OutputStream(descriptor: descriptor), useColor: false, showsSummary: true,
            measure: { window.size })
        let items = (0..<8).map { ItemInfo(id: $0, url: "http://h/\($0)", path: "f\($0).bin") }
        renderer.handle(.expecting(items: 8))
        items.forEach { renderer.handle(.started($0, total: 100, offset: nil)) }
        let beforeShrinking = try String(contentsOfFile: path, encoding: .utf8)
        window.size.rows = 5
        renderer.handle(.done(items[0], bytes: 100, transferred: 100, seconds: 1, sha256: nil))
        renderer.handle(.started(items[0], total: 100, offset: 50))
        renderer.finish()

        let drawn = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(drawn.contains("\u{1B}[J"), "erased line by line, never to the end of the screen")
        XCTAssertTrue(
            rowsUp(in: beforeShrinking).allSatisfy { $0 <= 8 }, "nine lines in thirty rows: \(beforeShrinking.debugDescription)")
        let afterShrinking = String(drawn.dropFirst(beforeShrinking.count))
        XCTAssertTrue(
            afterShrinking.hasPrefix("\r\u{1B}[2K" + String(repeating: "\u{1B}[A\u{1B}[2K", count: 4) + "\rf0.bin: done"),
            "up four rows of five, erasing: \(afterShrinking.debugDescription)")
        XCTAssertTrue(rowsUp(in: afterShrinking).allSatisfy { $0 <= 4 }, afterShrinking.debugDescription)
        XCTAssertFalse(afterShrinking.contains("% ["), "only the total line fits: \(afterShrinking.debugDescription)")
        XCTAssertTrue(afterShrinking.contains("f0.bin: continuing at 50% (50 B of 100 B) from http://h/0"), afterShrinking)
    }

    /// How many rows each move up went: `ESC[A` and `ESC[nA`.
    private func rowsUp(in text: String) -> [Int] {
        text.components(separatedBy: "\u{1B}[").dropFirst().compactMap { sequence in
            guard let end = sequence.firstIndex(where: { !$0.isNumber }), sequence[end] == "A" else { return nil }
            return Int(sequence[..<end]) ?? 1
        }
    }
}
