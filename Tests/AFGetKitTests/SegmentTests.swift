@testable import AFGetRequest
@testable import AFGetSession
@testable import AFGetKit
import CurlCore
import Foundation
import XCTest

/// How files are cut into segments and how segments are recorded in resume data.
final class SegmentTests: XCTestCase {
    func testInitialSegmentsAreEqualAndRespectTheMinimum() {
        XCTAssertEqual(SegmentPlan.initial(length: 100, from: 0, connections: 4, minimumSize: 10).map(\.start), [0, 25, 50, 75])
        XCTAssertEqual(SegmentPlan.initial(length: 100, from: 0, connections: 4, minimumSize: 10).last?.end, 100)
        XCTAssertEqual(SegmentPlan.initial(length: 100, from: 0, connections: 8, minimumSize: 40).count, 2)
        XCTAssertEqual(SegmentPlan.initial(length: 100, from: 0, connections: 8, minimumSize: 400).count, 1)
        let continued = SegmentPlan.initial(length: 100, from: 40, connections: 2, minimumSize: 10)
        XCTAssertEqual(
            continued, [Segment(start: 0, end: 40, done: 40), Segment(start: 40, end: 70), Segment(start: 70, end: 100)])
        XCTAssertEqual(SegmentPlan.contiguousPrefix(continued), 40, "the held prefix counts")
        XCTAssertEqual(continued.bytesDone, 40)
    }

    func testTheLargestSegmentLeftIsHalvedWhenWorthIt() throws {
        let segments = [
            Segment(start: 0, end: 100, done: 100), Segment(start: 100, end: 200, done: 20),
            Segment(start: 200, end: 300, done: 90),
        ]
        let split = try XCTUnwrap(SegmentPlan.split(segments, running: [(1, 120), (2, 290)], minimumSize: 10))
        XCTAssertEqual(split.index, 1)
        XCTAssertEqual(split.at, 160)
        XCTAssertNil(SegmentPlan.split(segments, running: [(2, 290)], minimumSize: 10), "10 bytes left is less than two minimums")
        XCTAssertNil(SegmentPlan.split(segments, running: [], minimumSize: 10))
    }

    func testASplitIsPlacedAfterWhereTheTransferHasReachedNotWhereItLastReported() throws {
        // Segment 1 reported 20 bytes written but has taken 80; segment 2 reported 50 and is there.
        let segments = [
            Segment(start: 0, end: 100, done: 100), Segment(start: 100, end: 200, done: 20),
            Segment(start: 200, end: 300, done: 50),
        ]
        let split = try XCTUnwrap(SegmentPlan.split(segments, running: [(1, 180), (2, 250)], minimumSize: 10))
        XCTAssertEqual(split.index, 2, "segment 1 has only 20 bytes left")
        XCTAssertEqual(split.at, 275)
        let behind = try XCTUnwrap(SegmentPlan.split(segments, running: [(1, 100)], minimumSize: 10))
        XCTAssertEqual(behind.at, 160, "a reached offset behind what is written counts for nothing")
    }

    func testAfterAFirstRangeTheRestIsSplitAmongTheOtherConnections() {
        XCTAssertEqual(
            SegmentPlan.afterFirstRange(0..<400, length: 1000, connections: 4, minimumSize: 100),
            [
                Segment(start: 0, end: 400), Segment(start: 400, end: 600), Segment(start: 600, end: 800),
                Segment(start: 800, end: 1000),
            ])
        XCTAssertEqual(
            SegmentPlan.afterFirstRange(300..<500, length: 600, connections: 4, minimumSize: 100),
            [Segment(start: 0, end: 300, done: 300), Segment(start: 300, end: 500), Segment(start: 500, end: 600)],
            "a continued file keeps what it holds; the rest is no smaller than the minimum")
    }

    func testTheContiguousPrefixStopsAtTheFirstGap() {
        XCTAssertEqual(
            SegmentPlan.contiguousPrefix([
                Segment(start: 0, end: 50, done: 50), Segment(start: 50, end: 100, done: 7),
                Segment(start: 100, end: 150, done: 50),
            ]), 57)
        XCTAssertEqual(
            SegmentPlan.contiguousPrefix([Segment(start: 0, end: 50, done: 10), Segment(start: 50, end: 100, done: 50)]), 10)
    }

    func testSegmentsRoundTripThroughResumeDataAndBadOnesAreRefused() throws {
        var data = ResumeData(
            url: "https://h/f", bytesReceived: 50, validators: EntityValidators(entityTag: "\"e\""),
            tempFileName: "f.afpart", destination: "f", expectedLength: 300,
            segments: [Segment(start: 0, end: 100, done: 50), Segment(start: 100, end: 300, done: 200)])
        XCTAssertEqual(try ResumeData(propertyList: data.propertyList()), data)
        for bad in [
            [Segment(start: 0, end: 100, done: 101)], [Segment(start: 50, end: 40)],
            [Segment(start: 0, end: 200), Segment(start: 100, end: 300)], [Segment(start: 0, end: 400)],
        ] {
            data.segments = bad
            XCTAssertThrowsError(try ResumeData(propertyList: data.propertyList()), "\(bad)")
        }
        data.segments = [Segment(start: 0, end: 100)]
        data.expectedLength = nil
        XCTAssertThrowsError(try ResumeData(propertyList: data.propertyList()), "segments need a known length")
    }
}

final class RatePacerTests: XCTestCase {
    func testTheAllowanceGrowsWithTimeFromTheFirstQuestion() {
        var pacer = RatePacer(bytesPerSecond: 1 << 20)
        XCTAssertFalse(pacer.isAhead(received: 0, now: 10))
        XCTAssertTrue(pacer.isAhead(received: 200 << 10, now: 10), "a burst of a tenth of the rate, no more")
        XCTAssertFalse(pacer.isAhead(received: 200 << 10, now: 10.2))
        XCTAssertTrue(pacer.isAhead(received: 2 << 20, now: 11))
        XCTAssertFalse(pacer.isAhead(received: 2 << 20, now: 12))
    }

    /// A continue and a segment ask for the rest of the same entity, unencoded, on every hop.
    func testARangedRequestAsksForTheRestOfTheSameEntityUnencoded() throws {
        let request = HTTPRequest(url: try CurlURL("http://h.test/f"), headers: [HTTPHeader(name: "X-A", value: "1")])
        let ranged = request.ranged(from: 1024, ifRange: "\"v1\"")
        XCTAssertEqual(
            ranged.headers.map { "\($0.name): \($0.value)" },
            ["X-A: 1", "Range: bytes=1024-", "If-Range: \"v1\"", "Accept-Encoding: identity"])
        XCTAssertEqual(ranged.headers.dropFirst().map(\.scope), [.everyHop, .everyHop, .everyHop])
        XCTAssertEqual(request.headers.count, 1, "the request it came from is left as it was")
    }

    /// The user's Accept-Encoding is replaced, never sent beside another.
    func testARangedRequestCarriesOneAcceptEncoding() throws {
        let request = HTTPRequest(
            url: try CurlURL("http://h.test/f"), headers: [HTTPHeader(name: "accept-encoding", value: "gzip")])
        XCTAssertEqual(
            request.ranged(from: 5, ifRange: "\"v1\"").headers.map(\.line),
            ["Range: bytes=5-", "If-Range: \"v1\"", "Accept-Encoding: identity"])
    }
}
