@testable import AFGetKit
import AFGetRequest
import AFGetSupport
import CurlCore
import XCTest

/// One file from several sources: which source a connection goes to, what a source's answer is
/// checked against, and which failures drop a source. No sockets.
final class MirrorSourcesTests: XCTestCase {
    private func sources(_ count: Int) throws -> MirrorSources {
        MirrorSources(try (0..<count).map { HTTPRequest(url: try CurlURL("http://m\($0).example/f.iso")) })
    }

    /// Connections go to the sources in turn, skipping those dropped; the first range's source
    /// (handed over) has had its turn; none is left once all are dropped.
    func testConnectionsGoToTheSourcesInTurn() throws {
        let rows: [(count: Int, took: Int?, dropped: [Int], expected: [Int?])] = [
            (1, nil, [], [0, 0, 0]),
            (2, nil, [], [0, 1, 0, 1]),
            (2, 0, [], [1, 0, 1]),
            (3, 0, [], [1, 2, 0, 1]),
            (3, 1, [], [2, 0, 1]),
            (3, 0, [1], [2, 0, 2]),
            (3, nil, [0, 2], [1, 1]),
            (2, nil, [0, 1], [nil, nil]),
        ]
        for row in rows {
            var set = try sources(row.count)
            if let took = row.took { set.took(took) }
            for index in row.dropped { XCTAssertTrue(set.drop(index, because: "gone")) }
            let chosen = row.expected.map { _ in set.nextForConnection() }
            XCTAssertEqual(chosen, row.expected, "\(row)")
            XCTAssertEqual(set.activeCount, row.count - row.dropped.count)
            XCTAssertEqual(set.current, (0..<row.count).first { !row.dropped.contains($0) })
        }
    }

    /// A suspect of a failed checksum is set aside while its bytes are fetched again: no
    /// connection goes to it, and it is not counted among the sources left; who wrote what is
    /// kept by URL, and a part cut short takes its runs with it.
    func testASuspectIsSetAsideWhileItsBytesAreFetchedAgain() throws {
        let rows: [(count: Int, aside: Int, dropped: [Int], expected: [Int?], usable: [Int])] = [
            (2, 0, [], [1, 1, 1], [1]),
            (2, 1, [], [0, 0], [0]),
            (3, 0, [], [1, 2, 1], [1, 2]),
            (3, 1, [2], [0, 0], [0]),
            (2, 0, [1], [nil], []),
        ]
        for row in rows {
            var set = try sources(row.count)
            set.setAside = row.aside
            for index in row.dropped { XCTAssertTrue(set.drop(index, because: "gone")) }
            XCTAssertEqual(row.expected.map { _ in set.nextForConnection() }, row.expected, "\(row)")
            XCTAssertEqual(set.activeCount, row.usable.count, "\(row)")
            XCTAssertEqual(set.current, row.usable.first, "\(row)")
            XCTAssertEqual(set.usable, row.usable.map { "http://m\($0).example/f.iso" }, "\(row)")
        }
        var set = try sources(2)
        set.wrote(0, 0..<100)
        set.wrote(1, 50..<80)
        XCTAssertEqual(set.ranges.ranges(of: "http://m0.example/f.iso"), [0..<50, 80..<100])
        XCTAssertEqual(set.ranges.ranges(of: "http://m1.example/f.iso"), [50..<80])
        set.truncated(to: 60)
        XCTAssertEqual(set.ranges.ranges(of: "http://m1.example/f.iso"), [50..<60])
        XCTAssertEqual(set.index(of: "http://m1.example/f.iso"), 1)
        XCTAssertNil(set.index(of: "http://elsewhere.example/f.iso"))
    }

    /// Resume data without who wrote what: the bytes held are the first source's; with it, as recorded.
    func testRecordedRangesOrTheFirstSourcesBytes() throws {
        var older = try sources(2)
        older.recorded(SourceRanges(), held: [0..<10, 20..<30])
        XCTAssertEqual(older.ranges.ranges(of: "http://m0.example/f.iso"), [0..<10, 20..<30])
        var recorded = try sources(2)
        recorded.recorded(SourceRanges([SourceRanges.Run(source: "http://m1.example/f.iso", start: 0, end: 10)]), held: [0..<10])
        XCTAssertEqual(recorded.ranges.sources, ["http://m1.example/f.iso"])
    }

    /// A source is dropped once: a second failure of it says nothing more.
    func testASourceIsDroppedOnce() throws {
        var set = try sources(2)
        XCTAssertTrue(set.drop(1, because: "HTTP 404"))
        XCTAssertFalse(set.drop(1, because: "HTTP 500"))
        set.served(0, bytes: 10)
        set.served(0, bytes: 5)
        XCTAssertEqual(set.served.map(\.bytes), [15, 0])
        XCTAssertEqual(set.served.map(\.dropped), [nil, "HTTP 404"])
        XCTAssertEqual(set.served.map(\.url), ["http://m0.example/f.iso", "http://m1.example/f.iso"])
    }

    /// What a source's answer is checked against: the entity's validators for the source that
    /// fixed it; for another, its own ETag (once it gave one, never the first source's) and the
    /// entity's Last-Modified (its own when the entity has none).
    func testAMirrorIsCheckedByLengthAndLastModifiedAndItsOwnETag() throws {
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        let other = "Thu, 22 Oct 2015 07:28:00 GMT"
        let entity = EntityValidators(entityTag: "\"first\"", lastModified: date)
        let rows: [(entity: EntityValidators, own: EntityValidators?, index: Int, expected: EntityValidators)] = [
            (entity, nil, 0, entity),
            (entity, nil, 1, EntityValidators(lastModified: date)),
            (
                entity, EntityValidators(entityTag: "\"mine\"", lastModified: date), 1,
                EntityValidators(entityTag: "\"mine\"", lastModified: date)
            ),
            (EntityValidators(entityTag: "\"first\""), nil, 1, EntityValidators()),
            (
                EntityValidators(entityTag: "\"first\""), EntityValidators(lastModified: other), 1,
                EntityValidators(lastModified: other)
            ),
        ]
        for row in rows {
            var set = try sources(2)
            set.fixEntity(by: 0)
            set.fixEntity(by: 1)  // the first answer stands
            if let own = row.own { set.answered(1, validators: own) }
            XCTAssertEqual(set.expected(of: row.index, entity: row.entity), row.expected, "\(row)")
        }
        // Before any answer no source is a mirror: the first to answer fixes the file.
        let fresh = try sources(2)
        XCTAssertFalse(fresh.isMirror(1))
        XCTAssertEqual(fresh.expected(of: 1, entity: entity), entity)
    }

    /// A mirror's 206 is used when its length and Last-Modified agree with the file's, whatever
    /// its ETag; another length, another date, or a whole answer are refused before a byte is written.
    func testAMirrorsAnswerIsJudgedBeforeAByteIsWritten() throws {
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        var set = try sources(2)
        set.fixEntity(by: 0)
        let recorded = set.expected(of: 1, entity: EntityValidators(entityTag: "\"first\"", lastModified: date))
        let expectation = ResumeExpectation(
            offset: 100, end: 200, expectedTotal: 1000, recorded: recorded, restartsOnFullResponse: false)
        func verdict(_ status: Int, _ headers: [(String, String)]) -> ResumeExpectation.Verdict {
            expectation.verdict(for: ResponseHead(status: status, headers: headers.map { (name: $0.0, value: $0.1) }))
        }
        let range = ("Content-Range", "bytes 100-199/1000")
        XCTAssertEqual(verdict(206, [range, ("ETag", "\"mirror\""), ("Last-Modified", date)]), .append)
        XCTAssertEqual(verdict(206, [range]), .append)
        guard case .changed = verdict(206, [("Content-Range", "bytes 100-199/999")]) else { return XCTFail("another length") }
        guard case .changed = verdict(206, [range, ("Last-Modified", "Thu, 22 Oct 2015 07:28:00 GMT")]) else {
            return XCTFail("another date")
        }
        guard case .refuse = verdict(200, [("Last-Modified", date)]) else { return XCTFail("a whole answer") }
    }

    /// From byte 0, a mirror without ranges may send the whole file: used when it is the file's
    /// length and its Last-Modified agrees, refused otherwise, before a byte is written.
    func testFromTheStartAMirrorsWholeAnswerOfTheSameFileIsUsed() throws {
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        var set = try sources(2)
        set.fixEntity(by: 0)
        let recorded = set.expected(of: 1, entity: EntityValidators(entityTag: "\"first\"", lastModified: date))
        let rows: [(offset: Int64, headers: [(String, String)], taken: Bool)] = [
            (0, [("Content-Length", "1000"), ("Last-Modified", date)], true),
            (0, [("Content-Length", "1000")], true),
            (0, [("Content-Length", "999"), ("Last-Modified", date)], false),
            (0, [("Last-Modified", date)], false),
            (0, [("Content-Length", "1000"), ("Last-Modified", "Thu, 22 Oct 2015 07:28:00 GMT")], false),
            (0, [("Content-Length", "1000"), ("Content-Range", "bytes 0-999/1000")], false),
            (100, [("Content-Length", "1000"), ("Last-Modified", date)], false),
        ]
        for row in rows {
            let expectation = ResumeExpectation(
                offset: row.offset, expectedTotal: 1000, recorded: recorded, restartsOnFullResponse: false,
                takesTheSameFileWhole: true)
            let verdict = expectation.verdict(
                for: ResponseHead(status: 200, headers: row.headers.map { (name: $0.0, value: $0.1) }))
            XCTAssertEqual(verdict == .restart, row.taken, "\(row.offset) \(row.headers): \(verdict)")
        }
    }

    /// Only what a source can be blamed for drops it.
    func testWhichFailuresDropASource() {
        let rows: [(FailureReason, Bool)] = [
            (.connection(.connectFailed(said: "refused")), true), (.connection(.tls(host: "h", said: "x", curlCode: 60)), true),
            (.response(.credentialsRefused(status: 401, phrase: "")), true), (.response(.tooLarge(limit: 1)), true),
            (.response(.httpStatus(404, phrase: "")), true), (.resume(.ignoresRanges), true),
            (.file(.system(errno: EIO)), false), (.input(.notUTF8), false), (.stop(.canceled), false),
            (.checksum(.notInSums(sumsFile: "SUMS")), false), (.file(.exists(path: "f")), false),
            (.file(.lockedByAnother(path: "f")), false),
        ]
        XCTAssertEqual(Set(rows.map(\.0.failureClass)), Set(FailureClass.allCases), "a row for every class")
        for (reason, drops) in rows {
            XCTAssertEqual(MirrorSources.isSourceFailure(TransferFailure(reason)), drops, "\(reason)")
        }
    }
}
