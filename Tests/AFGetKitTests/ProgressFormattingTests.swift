@testable import AFGetProgress
@testable import AFGetSupport
@testable import AFGetKit
import XCTest

final class ProgressFormattingTests: XCTestCase {
    func testSizesSpeedsAndDurations() {
        XCTAssertEqual(Formatting.bytes(0), "0 B")
        XCTAssertEqual(Formatting.bytes(1023), "1023 B")
        XCTAssertEqual(Formatting.bytes(1536), "1.5 KiB")
        XCTAssertEqual(Formatting.bytes(5 * 1024 * 1024 * 1024), "5.0 GiB")
        XCTAssertEqual(Formatting.speed(2 * 1024 * 1024), "2.0 MiB/s")
        XCTAssertEqual(Formatting.duration(42), "0:42")
        XCTAssertEqual(Formatting.duration(725), "12:05")
        XCTAssertEqual(Formatting.duration(3723), "1:02:03")
        XCTAssertEqual(Formatting.duration(.infinity), "--:--")
        XCTAssertEqual(Formatting.percent(50, of: 200), 25)
    }

    /// A continued download's done line says what this run received and reckons the speed
    /// from that alone.
    func testDoneLineOfAContinuedDownload() {
        let info = ItemInfo(id: 0, url: "http://h/f.iso", path: "f.iso")
        XCTAssertEqual(
            HumanMessages.done(info, bytes: 4 << 20, transferred: 4 << 20, seconds: 2),
            "f.iso: done, 4.0 MiB in 2.0 s, 2.0 MiB/s")
        XCTAssertEqual(
            HumanMessages.done(info, bytes: 4 << 20, transferred: 1 << 20, seconds: 2),
            "f.iso: done, 4.0 MiB (1.0 MiB this run) in 2.0 s, 512.0 KiB/s")
    }

    /// A 19 MiB download was "done … in 0.0 s": below a second the time is in milliseconds.
    func testDoneLineBelowASecondSaysMilliseconds() {
        let info = ItemInfo(id: 0, url: "http://h/f.iso", path: "f.iso")
        XCTAssertEqual(
            HumanMessages.done(info, bytes: 19 << 20, transferred: 19 << 20, seconds: 0.038),
            "f.iso: done, 19.0 MiB in 38 ms, 500.0 MiB/s")
        XCTAssertEqual(
            HumanMessages.done(info, bytes: 10, transferred: 10, seconds: 0.0002), "f.iso: done, 10 B in < 1 ms, 48.8 KiB/s")
        XCTAssertEqual(Formatting.took(0.9996), "1.0 s")
        XCTAssertEqual(Formatting.took(0.9994), "999 ms")
        XCTAssertEqual(Formatting.took(75), "1:15")
    }

    func testBarWithoutTotalOrColor() {
        let unknown = BarLayout(columns: 80, useColor: true).line(name: "stream", bytes: 2048, total: nil, speed: 1024)
        XCTAssertEqual(unknown, "stream    2.0 KiB    1.0 KiB/s")
        let colored = BarLayout(columns: 80, useColor: true).line(name: "f", bytes: 1, total: 2, speed: 1)
        XCTAssertTrue(colored.contains("\u{1B}[32m"))
        let wide = BarLayout(columns: 100, useColor: false).line(name: "f", bytes: 1, total: 4, speed: 1)
        XCTAssertTrue(wide.contains("[======"), wide)
    }

    func testSpeedFollowsTheWindow() {
        var speed = SpeedEstimator(window: 2)
        XCTAssertEqual(speed.bytesPerSecond, 0)
        speed.add(bytes: 0, at: 10)
        speed.add(bytes: 1000, at: 11)
        XCTAssertEqual(speed.bytesPerSecond, 1000)
        speed.add(bytes: 1000, at: 14)
        speed.add(bytes: 1000, at: 15)
        XCTAssertEqual(speed.bytesPerSecond, 0, "old samples leave the window")
        XCTAssertNil(speed.secondsRemaining(bytes: 1000, total: 2000))
    }

    func testJSONLinesEscapeAndKeepKeyOrder() {
        var line = JSONLine()
        line.add("event", "failed")
        line.add("id", 3)
        line.add("message", "bad \"name\"\n\u{1}")
        line.add("total", optional: nil)
        line.add("seconds", 1.5)
        XCTAssertEqual(line.text, #"{"event":"failed","id":3,"message":"bad \"name\"\n\u0001","total":null,"seconds":1.5}"#)
    }

    /// The total line counts the whole batch, its size known before the run (a bad list line
    /// is one of its items, finished and failed).
    func testBatchTotalsCountTheWholeBatch() {
        var totals = BatchTotals()
        totals.record(.expecting(items: 4))
        let items = (0..<3).map { ItemInfo(id: $0, url: "http://h/\($0)", path: "\($0).bin") }
        let badLine = ItemFailure(item: "l.txt:4", TransferFailure(.input(.notUTF8)))
        totals.record(.failed(ItemInfo(id: -1, url: "", path: "l.txt:4"), badLine))
        items.forEach { totals.record(.queued($0)) }
        totals.record(.started(items[0], total: 2048, offset: nil))
        totals.record(.done(items[0], bytes: 2048, transferred: 2048, seconds: 1, sha256: nil))
        XCTAssertEqual(totals.line, "[2/4] 2.0 KiB 0 B/s · 1 failed")
    }

    /// The batch's speed comes from its byte count over time; its ETA counts the bytes still
    /// to come, guessing the items whose length is not known yet from those seen ("~").
    func testBatchTotalsEstimateTheTimeLeft() {
        var totals = BatchTotals()
        totals.record(.expecting(items: 4), at: 0)
        let items = (0..<4).map { ItemInfo(id: $0, url: "http://h/\($0)", path: "\($0).bin") }
        totals.record(.queued(items[0]), at: 0)
        totals.record(.started(items[0], total: 1000, offset: nil), at: 0)
        XCTAssertEqual(totals.line, "[0/4] 0 B 0 B/s")
        totals.record(.progress(items[0], bytes: 500, total: 1000, speed: 0), at: 1)
        // 500 B/s; left: 500 of the active item, and the three not started, taken to be like it:
        // 3500 B, a guess.
        XCTAssertEqual(totals.line, "[0/4] 500 B 500 B/s ETA ~0:07")
        for item in items.dropFirst() {
            totals.record(.queued(item), at: 1)
            totals.record(.started(item, total: 1000, offset: nil), at: 1)
        }
        // Every item under way with its size known: 3500 B to come at 500 B/s, the whole batch.
        XCTAssertEqual(totals.line, "[0/4] 500 B 500 B/s ETA 0:07")
        // An item skipped after it started (-J naming a file that exists) is no longer under way.
        totals.record(.skipped(items[3], reason: "exists"), at: 1)
        XCTAssertEqual(totals.line, "[1/4] 500 B 500 B/s ETA 0:05")
    }

    /// The batch's ETA at its recent speed: an item at 2 MiB/s with 10 MiB to go, and two more
    /// of no known size (one under way without a length, one waiting) taken to be 12 MiB each
    /// like the one seen: 34 MiB, 17 s. It said "0:05+" with 24 MiB more to come.
    func testBatchETAGuessesItemsOfUnknownSizeFromTheOnesSeen() {
        var totals = BatchTotals()
        totals.record(.expecting(items: 3), at: 0)
        let items = (0..<3).map { ItemInfo(id: $0, url: "http://h/\($0)", path: "\($0).bin") }
        items.forEach { totals.record(.queued($0), at: 0) }
        totals.record(.started(items[0], total: 12 << 20, offset: nil), at: 0)
        totals.record(.started(items[1], total: nil, offset: nil), at: 0)
        totals.record(.progress(items[0], bytes: 2 << 20, total: 12 << 20, speed: 0), at: 1)
        XCTAssertEqual(totals.secondsRemaining?.seconds ?? -1, 17, accuracy: 0.01)
        XCTAssertTrue(totals.line.hasSuffix("2.0 MiB/s ETA ~0:17"), totals.line)
    }

    /// A continued item's bytes from an earlier run are in the count but not in the speed.
    func testBatchSpeedLeavesOutBytesOfEarlierRuns() {
        var totals = BatchTotals()
        totals.record(.expecting(items: 2), at: 0)
        let items = (0..<2).map { ItemInfo(id: $0, url: "http://h/\($0)", path: "\($0).bin") }
        totals.record(.queued(items[0]), at: 0)
        totals.record(.started(items[0], total: 1000, offset: 800), at: 0)
        totals.record(.progress(items[0], bytes: 900, total: 1000, speed: 0), at: 1)
        // 100 B/s; left: 100 of the active item, and one not started, guessed at 1000.
        XCTAssertEqual(totals.line, "[0/2] 900 B 100 B/s ETA ~0:11")
        totals.record(.done(items[0], bytes: 1000, transferred: 200, seconds: 2, sha256: nil), at: 2)
        XCTAssertEqual(totals.line, "[1/2] 1000 B 100 B/s ETA ~0:10", "the item still to come, like the one done")
    }

    /// A list read from a pipe has no known length: the line counts what is done, with no ETA.
    func testBatchTotalsOfAListOfUnknownLengthCountWhatIsDone() {
        var totals = BatchTotals()
        let items = (0..<2).map { ItemInfo(id: $0, url: "http://h/\($0)", path: "\($0).bin") }
        items.forEach { totals.record(.queued($0), at: 0) }
        totals.record(.started(items[0], total: 1000, offset: nil), at: 0)
        totals.record(.done(items[0], bytes: 1000, transferred: 1000, seconds: 1, sha256: nil), at: 1)
        totals.record(.started(items[1], total: 1000, offset: nil), at: 1)
        totals.record(.progress(items[1], bytes: 500, total: 1000, speed: 0), at: 2)
        XCTAssertEqual(totals.line, "[1 done] 1.5 KiB 750 B/s")
    }

    func testExitStatusOfABatchIsTheLowestFailure() {
        XCTAssertEqual(ExitStatus.combined([]), 0)
        XCTAssertEqual(ExitStatus.combined([0, 8, 4, 0]), 4)
        XCTAssertEqual(FailureClass.allCases.map(\.exitCode), Array(1...12))
    }
}
