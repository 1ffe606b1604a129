@testable import AFGetKit
import AFGetSupport
import Foundation
import XCTest

/// Who wrote which bytes of a file from several sources, whom a failed checksum suspects, what
/// is fetched again, and how resume data records it. No sockets.
final class SourceRangesTests: XCTestCase {
    private typealias Run = SourceRanges.Run

    private func runs(_ ranges: SourceRanges) -> [String] {
        ranges.runs.map { "\($0.source):\($0.start)-\($0.end)" }
    }

    /// Each write is recorded over what others wrote there; neighbours of one source join.
    func testTheLastWriteOfABytePrevails() {
        let rows: [(writes: [(String, Range<Int64>)], expected: [String])] = [
            ([], []),
            ([("a", 0..<10)], ["a:0-10"]),
            ([("a", 0..<10), ("a", 0..<4)], ["a:0-10"]),
            ([("a", 0..<10), ("a", 10..<20)], ["a:0-20"]),
            ([("a", 10..<20), ("b", 0..<10)], ["b:0-10", "a:10-20"]),
            ([("a", 0..<30), ("b", 10..<20)], ["a:0-10", "b:10-20", "a:20-30"]),
            ([("a", 0..<10), ("b", 10..<20), ("a", 5..<15)], ["a:0-15", "b:15-20"]),
            ([("a", 0..<10), ("b", 10..<20), ("c", 0..<20)], ["c:0-20"]),
            ([("a", 0..<10), ("b", 20..<30), ("c", 5..<25)], ["a:0-5", "c:5-25", "b:25-30"]),
            // A segment's progress, told again and again from where its task began.
            ([("a", 0..<3), ("b", 50..<60), ("a", 0..<7), ("a", 0..<10)], ["a:0-10", "b:50-60"]),
            ([("a", 5..<5)], []),
        ]
        for row in rows {
            var ranges = SourceRanges()
            for (source, range) in row.writes { ranges.record(source, range) }
            XCTAssertEqual(runs(ranges), row.expected, "\(row.writes)")
        }
    }

    /// A part file cut short takes its runs with it; what each source wrote, and how much.
    func testTruncationAndEachSourcesBytes() {
        var ranges = SourceRanges([
            Run(source: "a", start: 0, end: 10), Run(source: "b", start: 10, end: 20), Run(source: "a", start: 20, end: 30),
        ])
        XCTAssertEqual(ranges.ranges(of: "a"), [0..<10, 20..<30])
        XCTAssertEqual(ranges.bytes(of: "a"), 20)
        XCTAssertEqual(ranges.bytes(of: "b"), 10)
        XCTAssertEqual(ranges.bytes(of: "c"), 0)
        XCTAssertEqual(ranges.sources, ["a", "b"])
        let rows: [(length: Int64, expected: [String])] = [
            (40, ["a:0-10", "b:10-20", "a:20-30"]),
            (25, ["a:0-10", "b:10-20", "a:20-25"]),
            (20, ["a:0-10", "b:10-20"]),
            (15, ["a:0-10", "b:10-15"]),
            (0, []),
        ]
        for row in rows {
            var cut = ranges
            cut.truncate(to: row.length)
            XCTAssertEqual(runs(cut), row.expected, "\(row.length)")
        }
        ranges.truncate(to: 0)
        XCTAssertEqual(ranges.sources, [])
    }

    /// Whom a failed checksum suspects in turn: sources that wrote bytes, the fewest bytes first,
    /// each once, only while another usable source can fetch its bytes; none once all were.
    func testSuspectsInTurn() {
        let rows: [(runs: [Run], usable: [String], expected: [String?])] = [
            // The first source wrote more: the second is suspected first, then the first.
            (
                [Run(source: "a", start: 0, end: 60), Run(source: "b", start: 60, end: 100)], ["a", "b"],
                ["b", "a", nil]
            ),
            (
                [Run(source: "a", start: 0, end: 30), Run(source: "b", start: 30, end: 100)], ["a", "b"],
                ["a", "b", nil]
            ),
            // One source wrote it all (one connection): it is suspected while another is there.
            ([Run(source: "a", start: 0, end: 100)], ["a", "b"], ["a", nil]),
            ([Run(source: "a", start: 0, end: 100)], ["a"], [nil]),
            // The other source was dropped: nothing to fetch the bytes from.
            ([Run(source: "a", start: 0, end: 50), Run(source: "b", start: 50, end: 100)], ["a"], ["b", nil]),
            // A source of an earlier run, not given now, is suspected too.
            ([Run(source: "old", start: 0, end: 50), Run(source: "a", start: 50, end: 100)], ["a"], ["old", nil]),
            ([], ["a", "b"], [nil]),
        ]
        for row in rows {
            var finding = FaultFinding(after: .file(algorithm: "sha-256", expected: "0…", origin: nil, actual: "1…"))
            let ranges = SourceRanges(row.runs)
            var chosen: [String?] = []
            for _ in row.expected {
                chosen.append(finding.suspectNext(in: ranges, usable: row.usable))
                XCTAssertNil(finding.checked(matches: false), "a mismatch clears the suspect")
            }
            XCTAssertEqual(chosen, row.expected, "\(row.runs) \(row.usable)")
        }
    }

    /// A match after the suspect's bytes came from elsewhere convicts it; nothing suspected, no one.
    func testAMatchConvictsTheSuspect() {
        var finding = FaultFinding(after: .file(algorithm: "sha-256", expected: "0…", origin: nil, actual: "1…"))
        XCTAssertNil(finding.checked(matches: true))
        let ranges = SourceRanges([Run(source: "a", start: 0, end: 10), Run(source: "b", start: 10, end: 30)])
        XCTAssertEqual(finding.suspectNext(in: ranges, usable: ["a", "b"]), "a")
        XCTAssertEqual(finding.checked(matches: true), "a")
        XCTAssertNil(finding.suspect)
        XCTAssertEqual(finding.suspected, ["a"])
    }

    /// The segments that fetch a suspect's bytes again: those ranges empty, the rest held.
    func testThePlanFetchesOnlyTheSuspectsRanges() {
        func text(_ segments: [Segment]) -> [String] {
            segments.map { "\($0.start)-\($0.end)/\($0.done)" }
        }
        let rows: [(ranges: [Range<Int64>], length: Int64, expected: [String])] = [
            ([0..<100], 100, ["0-100/0"]),
            ([0..<40], 100, ["0-40/0", "40-100/60"]),
            ([60..<100], 100, ["0-60/60", "60-100/0"]),
            ([10..<20, 50..<60], 100, ["0-10/10", "10-20/0", "20-50/30", "50-60/0", "60-100/40"]),
            ([50..<60, 10..<20], 100, ["0-10/10", "10-20/0", "20-50/30", "50-60/0", "60-100/40"]),
            ([90..<120], 100, ["0-90/90", "90-100/0"]),
            ([], 100, ["0-100/100"]),
        ]
        for row in rows {
            let plan = FaultFinding.plan(refetching: row.ranges, length: row.length)
            XCTAssertEqual(text(plan), row.expected, "\(row.ranges)")
            XCTAssertEqual(
                plan.bytesDone, row.length - row.ranges.reduce(0) { $0 + max(0, min(row.length, $1.upperBound) - $1.lowerBound) })
        }
    }

    /// Resume data records the sources and who wrote what; older resume data without them
    /// still reads (nothing recorded), and ranges that cannot be true are refused.
    func testResumeDataRecordsTheSourcesAndTheirRanges() throws {
        let sources = ["https://a.example/f.iso", "https://b.example/f.iso"]
        let ranges = SourceRanges([
            Run(source: sources[0], start: 0, end: 400), Run(source: sources[1], start: 400, end: 700),
            Run(source: sources[0], start: 700, end: 800),
        ])
        let recorded = ResumeData(
            url: sources[0], bytesReceived: 400, validators: EntityValidators(entityTag: "\"x\""),
            tempFileName: "f.iso.afpart", destination: "f.iso", expectedLength: 1000,
            segments: [Segment(start: 0, end: 500, done: 400), Segment(start: 500, end: 1000, done: 300)],
            sources: sources, sourceRanges: ranges)
        let text = String(decoding: recorded.propertyList(), as: UTF8.self)
        XCTAssertTrue(text.contains("<key>AFGetSources</key>"), text)
        XCTAssertTrue(text.contains("<key>AFGetSourceRanges</key>"), text)
        let read = try ResumeData(propertyList: recorded.propertyList())
        XCTAssertEqual(read, recorded)
        XCTAssertEqual(read.sources, sources)
        XCTAssertEqual(read.sourceRanges.ranges(of: sources[1]), [400..<700])
        XCTAssertEqual(read.heldRanges, [0..<400, 500..<800])

        // Written before sources were recorded: reads, with none.
        let older = ResumeData(
            url: sources[0], bytesReceived: 400, validators: EntityValidators(entityTag: "\"x\""),
            tempFileName: "f.iso.afpart", destination: "f.iso", expectedLength: 1000)
        let olderText = String(decoding: older.propertyList(), as: UTF8.self)
        XCTAssertFalse(olderText.contains("AFGetSource"), olderText)
        let olderRead = try ResumeData(propertyList: older.propertyList())
        XCTAssertEqual(olderRead.sources, [])
        XCTAssertEqual(olderRead.sourceRanges, SourceRanges())
        XCTAssertEqual(olderRead.heldRanges, [0..<400])

        func variant(_ edit: (inout [String: Any]) -> Void) throws -> Data {
            var dictionary = try XCTUnwrap(
                PropertyListSerialization.propertyList(from: recorded.propertyList(), format: nil) as? [String: Any])
            edit(&dictionary)
            return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
        }
        func run(_ source: Any, _ start: Any, _ end: Any) -> [String: Any] { ["source": source, "start": start, "end": end] }
        let bad: [(String, Data)] = [
            ("sources not a list", try variant { $0["AFGetSources"] = "https://a.example/f.iso" }),
            ("a source not a URL", try variant { $0["AFGetSources"] = ["file:///etc/passwd"] }),
            ("ranges not a list", try variant { $0["AFGetSourceRanges"] = 3 }),
            ("a range past the file", try variant { $0["AFGetSourceRanges"] = [run("a", 0, 2000)] }),
            ("an empty range", try variant { $0["AFGetSourceRanges"] = [run("a", 10, 10)] }),
            ("overlapping ranges", try variant { $0["AFGetSourceRanges"] = [run("a", 0, 20), run("b", 10, 30)] }),
            ("a range without its source", try variant { $0["AFGetSourceRanges"] = [run("", 0, 20)] }),
            ("a source as a number", try variant { $0["AFGetSourceRanges"] = [run(1, 0, 20)] }),
            (
                "ranges of a file of unknown length",
                try variant {
                    $0["AFGetExpectedLength"] = nil; $0["AFGetSegments"] = nil
                }
            ),
        ]
        for (name, data) in bad {
            XCTAssertThrowsError(try ResumeData(propertyList: data), name)
        }
    }
}
