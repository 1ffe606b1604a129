@testable import AFGetKit
@testable import AFGetProgress
@testable import AFGetRequest
@testable import AFGetSession
@testable import AFGetSupport
import Foundation
import Glibc
import XCTest

/// A split download's steps (`-s`) without a socket, the test playing the driver as in
/// `DownloadJobStepTests`: the first range's task goes on as a segment, the other segments are
/// tasks of the same job, and a server that refuses connections, ignores ranges or fails a
/// segment is answered by transitions.
extension DownloadJobStepTests {
    /// 16 MiB, split 4 ways with 1 MiB the smallest segment: a first range of 4 MiB, then three
    /// segments of 4 MiB.
    private static let total: Int64 = 16 << 20
    private static let segmentStarts: [Int64] = [4 << 20, 8 << 20, 12 << 20]

    private var splitSettings: DownloadSettings { DownloadSettings(split: 4) }

    /// A job whose first range was answered 206 and handed over: the first range's task, and
    /// the segments' tasks it posted, in the order of their segments.
    private func splitJob(_ name: String) throws -> (DownloadJob, DownloadEnvironment, first: TaskID, posted: [TaskID]) {
        let (job, environment) = try job(name, settings: splitSettings)
        let first = try awaited(job.begin())
        let answer = head(
            206,
            [("Content-Range", "bytes 0-\((4 << 20) - 1)/\(Self.total)"), ("Content-Length", "\(4 << 20)"), ("ETag", Self.etag)])
        guard case .segments(let posted, let waits) = job.handle(.started(first, answer)) else {
            XCTFail("a 206 to the first range hands over to segments")
            throw XCTSkip()
        }
        XCTAssertEqual(waits, [])
        return (job, environment, first, posted)
    }

    private func rangeAnswer(_ segment: Int) -> ResponseHead {
        let start = Self.segmentStarts[segment]
        return head(206, [("Content-Range", "bytes \(start)-\(start + (4 << 20) - 1)/\(Self.total)"), ("ETag", Self.etag)])
    }

    private func noticeSaid(_ text: String) -> Bool {
        events.contains { if case .notice(let line) = $0 { line.contains(text) } else { false } }
    }

    /// The first range's task goes on as one of the connections; three more open at once, and
    /// the resume data records the segments from the start.
    func testTheFirstRangeGoesOnAsASegmentBesideThreeMore() throws {
        let (job, _, first, posted) = try splitJob("split.bin")
        XCTAssertEqual(posted.count, 3)
        XCTAssertFalse(posted.contains(first))
        let recorded = try XCTUnwrap(ResumeStore(destination: "\(directory)/split.bin").load())
        XCTAssertEqual(recorded.segments.map(\.start), [0] + Self.segmentStarts)
        XCTAssertEqual(recorded.expectedLength, Self.total)
        guard case .segments(posted: [], waits: []) = job.handle(.started(posted[0], rangeAnswer(0))) else {
            return XCTFail("a served segment asks for nothing new")
        }
    }

    /// A server that refuses a connection (503) beside served ones takes as many as it serves:
    /// said once all running requests are answered, and no connection is opened beyond them
    /// until one ends.
    func testAServerThatCapsConnectionsGetsNoMoreThanItTakes() throws {
        let (job, _, first, posted) = try splitJob("capped.bin")
        let refused = TaskResponse(head: head(503, []), finalURL: "", progress: TransferProgress(), body: [])
        guard case .segments(posted: [], waits: []) = job.handle(.completed(posted[0], refused)) else {
            return XCTFail("a refusal beside served connections is not retried at once")
        }
        _ = job.handle(.started(posted[1], rangeAnswer(1)))
        XCTAssertFalse(noticeSaid("the server takes"), "judged only once every request is answered")
        guard case .segments(posted: [], waits: []) = job.handle(.started(posted[2], rangeAnswer(2))) else {
            return XCTFail("no connection beyond the three the server takes")
        }
        XCTAssertTrue(noticeSaid("the server takes 3 connections at once; going on with 3"))
        // The first range done: its connection goes to the refused segment.
        let done = TaskResponse(
            head: head(206, [("Content-Range", "bytes 0-\((4 << 20) - 1)/\(Self.total)")]), finalURL: "",
            progress: progress(4 << 20),
            body: [])
        guard case .segments(let next, waits: []) = job.handle(.completed(first, done)), next.count == 1 else {
            return XCTFail("a connection that ends is given to the segment that waits")
        }
    }

    /// A segment answered with the whole file (a server that ignores ranges): the other
    /// segments stop, and one connection goes on from the bytes held without a gap.
    func testAServerThatIgnoresRangesFallsBackToOneConnectionFromTheGaplessPrefix() throws {
        let (job, _, first, posted) = try splitJob("ignores.bin")
        let whole = TransferFailure(.resume(.ignoresRanges))
        _ = job.handle(.progress(first, progress(4096)))
        _ = job.handle(.failed(posted[0], whole, TransferProgress()))
        _ = job.handle(.canceled(first, nil, progress(4096)))
        _ = job.handle(.canceled(posted[1], nil, TransferProgress()))
        let step = job.handle(.canceled(posted[2], nil, TransferProgress()))
        let single = try awaited(step)
        XCTAssertFalse(([first] + posted).contains(single), "one new connection")
        XCTAssertEqual(job.offset, 4096, "from the end of the bytes held without a gap")
        XCTAssertTrue(noticeSaid("one connection from here"))
    }

    /// A segment's transient failure waits for that segment alone, its connection taking half
    /// of another segment meanwhile; a stop during the wait ends the item stopped once every
    /// task has ended, with every segment recorded for the next run.
    func testASegmentRetriesAloneAndAStopDuringItsWaitKeepsTheSegments() throws {
        let (job, environment, first, posted) = try splitJob("retry.bin")
        let reset = TransferFailure(
            .connection(.curl(code: 56, said: "Connection reset by peer", failureClass: .network)), transient: true)
        guard case .segments(let stealing, let waits) = job.handle(.failed(posted[1], reset, TransferProgress())),
            waits.map(\.segment) == [Self.segmentStarts[1]], let wait = waits.first, wait.seconds > 0
        else { return XCTFail("the failed segment waits, alone") }
        XCTAssertEqual(stealing.count, 1, "the free connection takes half of a running segment")
        guard case .segments(posted: [], waits: []) = job.segmentRetryDue(wait.segment + 1, stoppedBy: nil) else {
            return XCTFail("the end of a wait no segment waits for changes nothing")
        }

        environment.cancellation.stop(.signal(SIGINT))
        _ = job.segmentRetryDue(wait.segment, stoppedBy: .signal(SIGINT))
        _ = job.handle(.canceled(first, .signal(SIGINT), progress(100)))
        _ = job.handle(.canceled(posted[0], .signal(SIGINT), TransferProgress()))
        _ = job.handle(.canceled(posted[2], .signal(SIGINT), TransferProgress()))
        guard case .ended(.stopped) = job.handle(.canceled(stealing[0], .signal(SIGINT), TransferProgress())) else {
            return XCTFail("the item ends stopped once every segment's task has ended")
        }
        let recorded = try XCTUnwrap(ResumeStore(destination: "\(directory)/retry.bin").load())
        XCTAssertEqual(recorded.segments.count, 5, "the four segments and the half taken from one")
        XCTAssertEqual(recorded.segments.first?.done, 100)
    }
}
