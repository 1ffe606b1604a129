@testable import AFGetProgress
@testable import AFGetSupport
import XCTest

/// Bars that hold still: the rows of a block line up, and a row keeps its shape as its
/// figures change.
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
}
