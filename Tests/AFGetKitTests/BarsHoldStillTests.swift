@testable import AFGetProgress
@testable import AFGetSupport
import Glibc
import XCTest

/// Bars that hold still: the rows of a block line up, a row keeps its shape as its figures
/// change, lines above the bars fit one row, and a frame rewrites only the rows that changed.
final class BarsHoldStillTests: XCTestCase {
    /// Names of every kind of width, and figures of every width: the first frame's "0 B/s"
    /// and "--:--", speeds either side of 100 KiB/s, an ETA with hours.
    private let items = [
        LiveBlock.Item(name: "a", bytes: 0, total: 1 << 20, speed: 0),
        LiveBlock.Item(name: "ubuntu-24.04-desktop-amd64.iso", bytes: 512 << 10, total: 1 << 30, speed: 99.9 * 1024),
        LiveBlock.Item(name: "数据-2026.bin", bytes: 100 << 20, total: 200 << 20, speed: 100 * 1024),
        LiveBlock.Item(name: "🎉-photos.zip", bytes: 1, total: 40 << 30, speed: 1023.9 * 1024),
        LiveBlock.Item(name: "sub/notes.txt", bytes: 999, total: 1000, speed: 3 * 1_048_576),
    ]

    /// Where a row's bar starts and ends and how wide it is, in columns.
    private func shape(_ line: String) -> [Int?] {
        let start = line.range(of: " [").map { DisplayWidth.of(String(line[..<$0.upperBound])) }
        let end = line.range(of: "]").map { DisplayWidth.of(String(line[..<$0.lowerBound])) }
        return [start, end, DisplayWidth.of(line)]
    }

    func testTheRowsOfABlockLineUp() {
        for columns in [120, 80, 60, 50, 40] {
            let lines = LiveBlock(size: TerminalSize(columns: columns, rows: 24), useColor: false).lines(
                items: items, totalLine: nil)
            XCTAssertEqual(lines.count, items.count)
            XCTAssertEqual(Set(lines.map { shape($0) }).count, 1, "\(columns) columns:\n" + lines.joined(separator: "\n"))
            let percents = lines.map { line in
                DisplayWidth.of(String(line[..<line.range(of: "%")!.upperBound]))
            }
            XCTAssertEqual(Set(percents).count, 1, "the percents in a column at \(columns):\n" + lines.joined(separator: "\n"))
            if columns >= 80 { XCTAssertNotNil(shape(lines[0])[0], "a bar at \(columns): \(lines[0])") }
            XCTAssertTrue(lines.allSatisfy { DisplayWidth.of($0) <= columns - 1 }, "\(lines)")
        }
    }

    /// One item as its speed crosses 100 KiB/s, its ETA gains digits and its percent reaches
    /// 100: the row keeps its width, its bar where it was.
    func testARowKeepsItsShapeAsItsFiguresChange() {
        for columns in [120, 80, 50, 40, 38] {
            let layout = BarLayout(columns: columns, useColor: false)
            let rows = [
                layout.line(name: "big.iso", bytes: 0, total: 5 << 30, speed: 0),
                layout.line(name: "big.iso", bytes: 1 << 20, total: 5 << 30, speed: 99 * 1024),
                layout.line(name: "big.iso", bytes: 1 << 30, total: 5 << 30, speed: 101 * 1024),
                layout.line(name: "big.iso", bytes: 5 << 30, total: 5 << 30, speed: 1000 * 1024),
            ]
            XCTAssertEqual(Set(rows.map { shape($0) }).count, 1, "\(columns) columns:\n" + rows.joined(separator: "\n"))
        }
    }

    /// An item whose length is not known shares the block's columns: its speed under the
    /// others' speeds.
    func testAnItemOfUnknownLengthKeepsTheColumns() {
        for columns in [120, 80, 50] {
            let lines = LiveBlock(size: TerminalSize(columns: columns, rows: 24), useColor: false).lines(
                items: [items[1], LiveBlock.Item(name: "stream", bytes: 3 << 20, total: nil, speed: 5 * 1_048_576)],
                totalLine: nil)
            let speedEnds = lines.map { DisplayWidth.of(String($0[..<$0.range(of: "/s")!.upperBound])) }
            XCTAssertEqual(speedEnds[0], speedEnds[1], "\(columns) columns:\n" + lines.joined(separator: "\n"))
            XCTAssertTrue(lines[1].contains("3.0 MiB"), lines[1])
        }
    }

    /// A continue notice at 38 and 80 columns: one row, the name whole; the URL is shortened
    /// in its middle first, then left out, then the sizes.
    func testANoticeAboveTheBarsFitsOneRow() throws {
        let info = ItemInfo(
            id: 0, url: "https://downloads.example.org/releases/2026/ubuntu-24.04-desktop-amd64.iso?token=abcdef0123456789",
            path: "u.iso")
        let at80 = try drawn(columns: 80) { $0.handle(.started(info, total: 4 << 30, offset: 1 << 30)) }
        let notice80 = try XCTUnwrap(at80.lines.first { $0.contains("continuing") }, "\(at80.lines)")
        XCTAssertLessThanOrEqual(DisplayWidth.of(notice80), 78, notice80)
        XCTAssertTrue(notice80.hasPrefix("u.iso: continuing at 25% (1.0 GiB of 4.0 GiB) from https://downl"), notice80)
        XCTAssertTrue(notice80.contains("…") && notice80.hasSuffix("456789"), notice80)

        let at38 = try drawn(columns: 38) { $0.handle(.started(info, total: 4 << 30, offset: 1 << 30)) }
        XCTAssertTrue(at38.lines.contains("u.iso: continuing at 25%"), "\(at38.lines)")

        // Done, skipped and failed lines too; the cause is never cut.
        let failure = ItemFailure(item: info.url, TransferFailure(.response(.httpStatus(404, phrase: "Not Found"))))
        let at50 = try drawn(columns: 50) { renderer in
            renderer.handle(.started(info, total: 4 << 30, offset: nil))
            renderer.handle(.done(info, bytes: 4 << 30, transferred: 3 << 30, seconds: 61, sha256: nil))
            renderer.handle(.failed(info, failure))
        }
        XCTAssertTrue(at50.lines.contains("u.iso: done, 4.0 GiB (3.0 GiB this run) in 1:01"), "\(at50.lines)")
        let failed = try XCTUnwrap(at50.lines.first { $0.hasPrefix("afget: https://") }, "\(at50.lines)")
        XCTAssertTrue(
            failed.contains("…") && failed.hasSuffix("456789: HTTP 404 Not Found") && DisplayWidth.of(failed) <= 48, failed)
    }

    /// A frame rewrites the rows that changed and no other: a third bar of a name as long as
    /// the others' is written alone, under the two already there.
    func testAFrameRewritesOnlyTheRowsThatChanged() throws {
        let infos = (0..<3).map { ItemInfo(id: $0, url: "http://h/\($0)", path: "f\($0).bin") }
        let steps = try drawnSteps(columns: 80) { renderer in
            [
                { renderer.handle(.started(infos[0], total: 100, offset: nil)) },
                { renderer.handle(.started(infos[1], total: 100, offset: nil)) },
                { renderer.handle(.started(infos[2], total: 100, offset: nil)) },
            ]
        }
        XCTAssertTrue(steps[2].contains("f2.bin"), steps[2].debugDescription)
        XCTAssertFalse(steps[2].contains("f0.bin") || steps[2].contains("f1.bin"), steps[2].debugDescription)
        XCTAssertFalse(steps[2].contains("\u{1B}[2K"), "nothing erased: \(steps[2].debugDescription)")
    }

    // MARK: Drawing into a file

    /// What a bar renderer in a window `columns` wide wrote while `body` ran, and its lines
    /// with cursor moves and erasing taken out.
    private func drawn(columns: Int, _ body: (BarRenderer) -> Void) throws -> (text: String, lines: [String]) {
        let text = try withoutActuallyEscaping(body) { body in
            try drawnSteps(columns: columns) { renderer in [{ body(renderer) }] }.joined()
        }
        let lines = text.replacingOccurrences(of: "\u{1B}[K", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: #"\x1B\[[0-9]*[A-Za-z]"#, with: "", options: .regularExpression)
            .split(separator: "\n").map(String.init)
        return (text, lines)
    }

    /// What the renderer wrote at each step.
    private func drawnSteps(columns: Int, _ steps: (BarRenderer) -> [() -> Void]) throws -> [String] {
        let path = NSTemporaryDirectory() + "bars-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
        let descriptor = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        let renderer = BarRenderer(
            stream: OutputStream(descriptor: descriptor), useColor: false, showsSummary: false,
            measure: { TerminalSize(columns: columns, rows: 24) })
        var written: [String] = []
        var before = 0
        for step in steps(renderer) {
            step()
            let text = try String(contentsOfFile: path, encoding: .utf8)
            written.append(String(text.dropFirst(before)))
            before = text.count
        }
        return written
    }
}
