@testable import AFGetKit
import AFGetProgress
import AFGetRequest
import AFGetSupport
import CurlCore
import XCTest

/// A file's piece hashes: which pieces are due once their bytes are held, what a check says,
/// which pieces are checked again once rewritten, how a bad piece is reopened among the
/// segments, and which sources may fetch it again. No sockets, no files: a piece's digest is
/// given by the test.
final class PieceCheckTests: XCTestCase {
    /// Pieces of 10 bytes; the hash of piece N is "hN".
    private func check(total: Int64) -> PieceCheck {
        let count = Int((total + 9) / 10)
        return PieceCheck(
            PieceHashes(length: 10, algorithm: .sha256, hashes: (0..<count).map { "h\($0)" }), total: total)
    }

    func testHashesFitAFileOfOneLengthAndEachPieceHasItsBytes() {
        let rows: [(count: Int, total: Int64, fits: Bool)] = [
            (0, 0, true), (1, 0, false), (1, 1, true), (1, 10, true), (1, 11, false), (2, 11, true), (2, 20, true),
            (3, 20, false),
        ]
        for row in rows {
            let hashes = PieceHashes(length: 10, algorithm: .md5, hashes: Array(repeating: "ab", count: row.count))
            XCTAssertEqual(hashes.fit(total: row.total), row.fits, "\(row)")
        }
        let hashes = PieceHashes(length: 10, algorithm: .md5, hashes: ["A", "b", "c"])
        XCTAssertEqual(hashes.hashes, ["a", "b", "c"], "kept lowercase")
        XCTAssertEqual((0..<3).map { hashes.range(of: $0, total: 25) }, [0..<10, 10..<20, 20..<25])
        let overlapping: [(Range<Int64>, Range<Int>)] = [
            (0..<0, 0..<0), (0..<1, 0..<1), (9..<10, 0..<1), (9..<11, 0..<2), (10..<20, 1..<2), (5..<25, 0..<3),
            (24..<100, 2..<3), (30..<40, 3..<3),
        ]
        for (range, pieces) in overlapping {
            XCTAssertEqual(hashes.pieces(overlapping: range), pieces, "\(range)")
        }
    }

    /// A piece is due when every byte of it is held and it is neither checked nor failed.
    func testAPieceIsDueOnceEveryByteOfItIsHeld() {
        let rows: [(held: [Range<Int64>], near: Range<Int64>, due: [Int])] = [
            ([], 0..<35, []),
            ([0..<9], 0..<35, []),
            ([0..<10], 0..<35, [0]),
            ([0..<10], 10..<35, []),
            ([0..<35], 0..<35, [0, 1, 2, 3]),
            ([0..<35], 12..<13, [1]),
            ([0..<15, 15..<35], 0..<35, [0, 2, 3]),
            ([5..<35], 0..<35, [1, 2, 3]),
            ([0..<34], 0..<35, [0, 1, 2]),
        ]
        for row in rows {
            XCTAssertEqual(check(total: 35).due(held: row.held, near: row.near), row.due, "\(row)")
        }
    }

    /// A check reads the piece's bytes once: a match is kept, a mismatch is not due again until
    /// the piece is written again; a cut part file forgets the pieces past the cut.
    func testACheckedPieceIsDueAgainOnlyOnceRewritten() throws {
        var pieces = check(total: 35)
        var read: [Range<Int64>] = []
        func digest(_ matching: Bool) -> (Range<Int64>, DigestAlgorithm) -> String {
            { range, _ in
                read.append(range)
                return matching ? "h\(range.lowerBound / 10)" : "bad"
            }
        }
        XCTAssertNil(try pieces.check(0, digest: digest(true)))
        let mismatch = try XCTUnwrap(try pieces.check(3, digest: digest(false)))
        XCTAssertEqual(read, [0..<10, 30..<35])
        XCTAssertEqual(mismatch, PieceCheck.Mismatch(piece: 3, range: 30..<35, algorithm: .sha256, expected: "h3", actual: "bad"))
        XCTAssertEqual(
            TransferFailure(.checksum(.mismatch(mismatch.asDigestMismatch, found: nil, keptIn: nil))).message,
            "checksum mismatch: piece 3 (bytes 30-34): expected sha-256 h3, got bad")
        XCTAssertEqual(pieces.due(held: [0..<35], near: 0..<35), [1, 2])
        XCTAssertEqual(pieces.unchecked, [1, 2, 3], "a failed piece is still to be checked at the end")

        pieces.forget(25..<31)
        XCTAssertEqual(pieces.due(held: [0..<35], near: 0..<35), [1, 2, 3])
        XCTAssertNil(try pieces.check(3, digest: digest(true)))
        XCTAssertNil(try pieces.check(1, digest: digest(true)))
        XCTAssertEqual(pieces.unchecked, [2])

        pieces.truncate(to: 15)
        XCTAssertEqual(pieces.unchecked, [1, 2, 3], "piece 1 reaches past the cut")
        pieces.truncate(to: 0)
        XCTAssertEqual(pieces.unchecked, [0, 1, 2, 3])
    }

    /// A bad piece among the segments becomes a segment of its own with nothing done; the
    /// segments around it keep what they hold before and after it.
    func testABadPieceIsReopenedAsASegmentOfItsOwn() {
        typealias S = Segment
        let rows: [(segments: [S], range: Range<Int64>, expected: [S])] = [
            // Inside one complete segment.
            (
                [S(start: 0, end: 100, done: 100)], 20..<30,
                [S(start: 0, end: 20, done: 20), S(start: 20, end: 30), S(start: 30, end: 100, done: 70)]
            ),
            // At a segment's start, in the part it holds, the rest still to come.
            ([S(start: 0, end: 100, done: 40)], 0..<10, [S(start: 0, end: 10), S(start: 10, end: 100, done: 30)]),
            // Across two segments.
            (
                [S(start: 0, end: 50, done: 50), S(start: 50, end: 100, done: 20)], 40..<60,
                [S(start: 0, end: 40, done: 40), S(start: 40, end: 60), S(start: 60, end: 100, done: 10)]
            ),
            // A whole segment, between others left as they are.
            (
                [S(start: 0, end: 10, done: 10), S(start: 10, end: 20, done: 10), S(start: 20, end: 30, done: 5)], 10..<20,
                [S(start: 0, end: 10, done: 10), S(start: 10, end: 20), S(start: 20, end: 30, done: 5)]
            ),
        ]
        for row in rows {
            XCTAssertEqual(SegmentPlan.reopening(row.range, in: row.segments), row.expected, "\(row.range)")
        }
        XCTAssertEqual(
            [
                S(start: 50, end: 100, done: 20), S(start: 0, end: 50, done: 50), S(start: 70, end: 80),
                S(start: 80, end: 90, done: 5),
            ]
            .heldRanges,
            [0..<70, 80..<85], "neighbours joined, in order")
    }

    /// Who wrote a piece, and who may fetch it again: with one source, that source; a source
    /// that wrote it is not asked for it again, and with no other source left there is none.
    func testABadPieceGoesToASourceThatDidNotWriteIt() throws {
        var one = MirrorSources([HTTPRequest(url: try CurlURL("http://a.example/f"))])
        XCTAssertEqual(one.writers(of: 0..<10), [0])
        XCTAssertFalse(one.hasUsable(otherThan: [0]))
        XCTAssertNil(one.nextForConnection(avoiding: [0]))

        var three = MirrorSources(try ["a", "b", "c"].map { HTTPRequest(url: try CurlURL("http://\($0).example/f")) })
        three.wrote(0, 0..<15)
        three.wrote(1, 15..<30)
        XCTAssertEqual(three.writers(of: 0..<10), [0])
        XCTAssertEqual(three.writers(of: 10..<20), [0, 1])
        XCTAssertEqual(three.writers(of: 30..<40), [])
        XCTAssertEqual((0..<4).map { _ in three.nextForConnection(avoiding: [0, 1]) }, [2, 2, 2, 2])
        XCTAssertEqual((0..<3).map { _ in three.nextForConnection(avoiding: [1]) }, [0, 2, 0])
        XCTAssertTrue(three.drop(2, because: "down"))
        XCTAssertFalse(three.hasUsable(otherThan: [0, 1]))
        XCTAssertNil(three.nextForConnection(avoiding: [0, 1]))
        XCTAssertEqual(three.ranges.sources(in: 14..<16), ["http://a.example/f", "http://b.example/f"])
    }

    /// A bad piece's blame: a source that alone wrote it is dropped and said once; several
    /// writers are avoided, none dropped; with no other source left, nobody is blamed.
    func testABadPieceDropsTheSourceThatAloneWroteIt() throws {
        var sources = MirrorSources(try ["a", "b", "c"].map { HTTPRequest(url: try CurlURL("http://\($0).example/f")) })
        sources.wrote(0, 0..<15)
        sources.wrote(1, 15..<30)
        let info = ItemInfo(id: 0, url: "http://a.example/f", path: "f")
        func mismatch(_ range: Range<Int64>) -> PieceCheck.Mismatch {
            PieceCheck.Mismatch(piece: Int(range.lowerBound / 10), range: range, algorithm: .sha256, expected: "e", actual: "a")
        }
        let alone = try XCTUnwrap(sources.blame(mismatch(0..<10), of: info))
        XCTAssertEqual(alone.writers, [0])
        guard case .sourceDropped(_, "http://a.example/f", "piece 0 did not match its sha-256 hash")? = alone.said else {
            return XCTFail("the source that alone wrote it is dropped: \(String(describing: alone.said))")
        }
        XCTAssertTrue(sources.isDropped(0))
        XCTAssertNil(try XCTUnwrap(sources.blame(mismatch(0..<10), of: info)).said, "said once")
        let shared = try XCTUnwrap(sources.blame(mismatch(10..<20), of: info))
        XCTAssertEqual(shared.writers, [0, 1])
        guard case .notice(let line)? = shared.said else { return XCTFail("several writers: a notice") }
        XCTAssertEqual(
            line, "afget: f: piece 1 did not match its sha-256 hash; fetching it again from a source that did not serve it")
        XCTAssertFalse(sources.isDropped(1))
        XCTAssertTrue(sources.drop(2, because: "down"))
        XCTAssertNil(sources.blame(mismatch(10..<20), of: info), "no source but its writers left")
    }
}
