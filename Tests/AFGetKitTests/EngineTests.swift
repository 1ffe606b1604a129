@testable import AFGetKit
@testable import AFGetProgress
@testable import AFGetRequest
@testable import AFGetSession
@testable import AFGetSupport
import Glibc
import Synchronization
import XCTest

/// The engine's small parts on their own: the run's stop, the retry loop, a download's phases.
final class EngineTests: XCTestCase {
    func testAStopEndsAWaitAtOnceAndKeepsTheFirstReason() async {
        let cancellation = Cancellation()
        let started = ContinuousClock.now
        Task {
            try await Task.sleep(for: .milliseconds(50))
            cancellation.stop(.signal(SIGINT))
            cancellation.stop(.failFast)
        }
        let reason = await cancellation.wait(seconds: 30)
        XCTAssertEqual(reason, .signal(SIGINT))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "the wait ended with the stop, not its 30 s")
        XCTAssertEqual(cancellation.reason, .signal(SIGINT), "the first reason stands")
        XCTAssertTrue(cancellation.isRequested)
        XCTAssertEqual(cancellation.exitStatus, 130)
    }

    func testAStopReachesWhatRegisteredForItEvenLate() {
        let cancellation = Cancellation()
        let heard = PthreadMutex<[StopReason]>([])
        cancellation.onStop { reason in heard.withLock { $0.append(reason) } }
        cancellation.stop(.failFast)
        cancellation.onStop { reason in heard.withLock { $0.append(reason) } }
        XCTAssertEqual(heard.withLock { $0 }, [.failFast, .failFast])
        XCTAssertNil(cancellation.exitStatus, "only a signal has an exit status of its own")
    }

    func testAWaitWithoutAStopLastsItsTime() async {
        let reason = await Cancellation().wait(seconds: 0.01)
        XCTAssertNil(reason)
    }

    private func retryLoop(maxRetries: Int, cancellation: Cancellation = Cancellation()) -> RetryLoop {
        RetryLoop(
            policy: RetryPolicy(maxRetries: maxRetries, baseDelay: 0), cancellation: cancellation,
            renderer: SharedRenderer(QuietRenderer(showsRetries: false)))
    }

    private let item = ItemInfo(id: 0, url: "http://example.invalid/f", path: "f")

    func testTheRetryLoopCountsAttemptsAndSaysSoWhenItGivesUp() async {
        var loop = retryLoop(maxRetries: 2)
        let dropped = TransferFailure(
            .connection(.curl(code: 56, said: "connection dropped", failureClass: .network)), transient: true)
        let problem = try! XCTUnwrap(RetryLoop.transientProblem(response: nil, failure: dropped, sentCredentials: false))
        for _ in 0..<2 {
            guard case .retry = await loop.next(after: problem, item: item) else { return XCTFail("retries left") }
        }
        guard case .exhausted(let final) = await loop.next(after: problem, item: item) else { return XCTFail() }
        XCTAssertEqual(final.message, "connection dropped (after 3 attempts)")
    }

    func testTheRetryLoopRetriesTransientStatusesUnlessAccepted() {
        let busy = ResponseHead(status: 503, reason: "Busy", headers: [("Retry-After", "7")])
        let problem = RetryLoop.transientProblem(response: busy, failure: nil, sentCredentials: false)
        XCTAssertEqual(problem?.retryAfter, "7")
        XCTAssertNil(RetryLoop.transientProblem(response: busy, failure: nil, sentCredentials: false, accepted: [503...503]))
        XCTAssertNil(
            RetryLoop.transientProblem(
                response: ResponseHead(status: 404),
                failure: nil, sentCredentials: false))
        XCTAssertNil(
            RetryLoop.transientProblem(
                response: nil, failure: TransferFailure(.file(.cannot(.write, path: "f", errno: ENOSPC))),
                sentCredentials: false))
    }

    func testAStopDuringARetryWaitEndsTheLoop() async {
        let cancellation = Cancellation()
        var loop = RetryLoop(
            policy: RetryPolicy(maxRetries: 5, baseDelay: 30), cancellation: cancellation,
            renderer: SharedRenderer(QuietRenderer(showsRetries: false)))
        let problem = RetryLoop.Problem(
            failure: TransferFailure(.connection(.curl(code: 56, said: "reset", failureClass: .network)), transient: true),
            retryAfter: nil)
        Task {
            try await Task.sleep(for: .milliseconds(50))
            cancellation.stop(.signal(SIGTERM))
        }
        guard case .stopped(let reason) = await loop.next(after: problem, item: item) else { return XCTFail() }
        XCTAssertEqual(reason, .signal(SIGTERM))
    }

    func testADownloadMovesOnlyForwardThroughItsPhases() {
        XCTAssertTrue(DownloadPhase.preparing.canTransition(to: .transferring(attempt: 1)))
        XCTAssertTrue(DownloadPhase.transferring(attempt: 1).canTransition(to: .waitingToRetry))
        XCTAssertTrue(DownloadPhase.waitingToRetry.canTransition(to: .transferring(attempt: 2)))
        XCTAssertTrue(DownloadPhase.transferring(attempt: 2).canTransition(to: .transferring(attempt: 3)))
        XCTAssertTrue(DownloadPhase.transferring(attempt: 3).canTransition(to: .verifying))
        XCTAssertTrue(DownloadPhase.verifying.canTransition(to: .moving))
        XCTAssertTrue(DownloadPhase.moving.canTransition(to: .ended))
        XCTAssertTrue(DownloadPhase.preparing.canTransition(to: .ended))

        XCTAssertFalse(DownloadPhase.preparing.canTransition(to: .moving), "nothing is moved before it is verified")
        XCTAssertTrue(
            DownloadPhase.verifying.canTransition(to: .transferring(attempt: 2)),
            "a failed checksum of a file from several sources fetches a suspect's bytes again")
        XCTAssertFalse(DownloadPhase.moving.canTransition(to: .transferring(attempt: 2)), "no way back once moving")
        XCTAssertFalse(DownloadPhase.transferring(attempt: 1).canTransition(to: .transferring(attempt: 3)))
        XCTAssertFalse(DownloadPhase.ended.canTransition(to: .preparing))

        var heard: [DownloadPhase] = []
        var machine = DownloadPhaseMachine()
        machine.startAttempt()
        heard.append(machine.phase)
        for next in [DownloadPhase.waitingToRetry, nil, .verifying, .moving, .ended] {
            if let next { machine.move(to: next) } else { machine.startAttempt() }
            heard.append(machine.phase)
        }
        XCTAssertEqual(
            heard, [.transferring(attempt: 1), .waitingToRetry, .transferring(attempt: 2), .verifying, .moving, .ended])
        XCTAssertEqual(machine.attempts, 2)
    }

    func testAStallIsNoDataForTheLimitOrHeadersDueTooLong() {
        func sample(
            activity: Int64, sent: Int64 = 0, unsent: Int64 = 0, headers: Bool, sentAfter: Double = 0.1,
            sending: Bool = false
        ) -> StallWatch.Sample {
            StallWatch.Sample(
                activity: activity, sent: sent, unsent: unsent, headersComplete: headers, requestSentAfter: sentAfter,
                isSendingBody: sending)
        }
        var body = StallWatch(limit: 30, startedAt: 0)
        XCTAssertNil(body.failure(sample(activity: 100, headers: true), at: 20))
        XCTAssertNil(body.failure(sample(activity: 200, headers: true), at: 45), "a byte within the limit is progress")
        XCTAssertEqual(body.failure(sample(activity: 200, headers: true), at: 76)?.message, "stalled: no data received for 30 s")

        // A gap in the watching not explained yet (a stop, or a slow write): silence is judged
        // as of before the gap, so the gap is blamed on no transfer, and a server silent for
        // longer than the limit before it is still a stall.
        var gapped = StallWatch(limit: 30, startedAt: 0)
        XCTAssertNil(gapped.failure(sample(activity: 100, headers: true), at: 10))
        XCTAssertNil(gapped.failure(sample(activity: 100, headers: true), at: 50, judgedAt: 39))
        XCTAssertNotNil(gapped.failure(sample(activity: 100, headers: true), at: 52, judgedAt: 41))
        var restarted = StallWatch(limit: 30, startedAt: 0)
        XCTAssertNil(restarted.failure(sample(activity: 100, headers: true), at: 10))
        restarted.restartClocks(at: 50)
        XCTAssertNil(restarted.failure(sample(activity: 100, headers: true), at: 50), "a stop's time is nobody's stall")

        var rated = StallWatch(limit: 30, startedAt: 0)
        _ = rated.failure(sample(activity: 100, headers: true), at: 1)
        rated.excuse(at: 40)
        XCTAssertNil(rated.failure(sample(activity: 100, headers: true), at: 60), "waiting for --limit-rate is not a stall")

        var dripping = StallWatch(limit: 30, startedAt: 0)
        XCTAssertNil(dripping.failure(sample(activity: 10, headers: false), at: 20))
        XCTAssertEqual(
            dripping.failure(sample(activity: 50, headers: false), at: 31)?.message,
            "stalled: no complete response headers within 30 s", "header bytes that drip do not count")

        var uploading = StallWatch(limit: 30, startedAt: 0)
        XCTAssertNil(uploading.failure(sample(activity: 10, sent: 1000, headers: false, sending: true), at: 25))
        XCTAssertNil(
            uploading.failure(sample(activity: 20, sent: 2000, headers: false, sending: true), at: 50),
            "sending the body is progress: the headers' clock starts at its last byte")
        XCTAssertEqual(
            uploading.failure(sample(activity: 20, sent: 2000, headers: false, sending: true), at: 81)?.message,
            "stalled: no body byte sent for 30 s")
    }

    /// libcurl counts a body as sent once the kernel took it; the kernel's queue can hold
    /// minutes of a slow uplink. Bytes leaving the queue are progress, and the headers' clock
    /// starts when it is empty.
    func testBytesLeavingTheSendQueueAreProgress() {
        func queued(_ unsent: Int64, activity: Int64 = 20) -> StallWatch.Sample {
            StallWatch.Sample(
                activity: activity, sent: 2000, unsent: unsent, headersComplete: false, requestSentAfter: 0.1,
                isSendingBody: false)
        }
        var slowReader = StallWatch(limit: 30, startedAt: 0)
        XCTAssertNil(slowReader.failure(queued(1500), at: 10))
        XCTAssertNil(slowReader.failure(queued(1000), at: 35))
        XCTAssertNil(slowReader.failure(queued(500), at: 60), "the queue draining is progress")
        XCTAssertNil(slowReader.failure(queued(0), at: 85), "the headers' clock starts once the queue is empty")
        XCTAssertNil(slowReader.failure(queued(0), at: 110))
        XCTAssertEqual(
            slowReader.failure(queued(0), at: 116)?.message, "stalled: no complete response headers within 30 s")

        var stoppedReading = StallWatch(limit: 30, startedAt: 0)
        XCTAssertNil(stoppedReading.failure(queued(1500), at: 10))
        XCTAssertEqual(
            stoppedReading.failure(queued(1500), at: 41)?.message, "stalled: no body byte sent for 30 s",
            "a queue that does not drain is a server that stopped reading")
    }
}
