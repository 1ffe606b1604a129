import AFGetProgress
import AFGetRequest
import AFGetSupport
import Glibc

/// The retry loop every transfer goes through — single downloads, each segment of a split
/// download, uploads and requests: an attempt ends, `transientProblem` classifies it, and
/// `next` waits as RetryPolicy says (Retry-After, or a backoff) before the next attempt, or
/// gives up. The notice, the counting and the wording of the last failure are the same for all.
/// The run's stop ends a wait at once.
struct RetryLoop: Sendable {
    let policy: RetryPolicy
    let cancellation: Cancellation
    let renderer: SharedRenderer
    /// When the item's `--max-time` runs out: no wait goes past it (the next attempt then
    /// fails at once, saying so).
    let deadline: Double?
    /// Attempts that failed so far.
    private(set) var failedAttempts = 0

    init(policy: RetryPolicy, cancellation: Cancellation, renderer: SharedRenderer, deadline: Double? = nil) {
        self.policy = policy
        self.cancellation = cancellation
        self.renderer = renderer
        self.deadline = deadline
    }

    /// A failure worth another attempt, and the wait the server asked for.
    struct Problem: Sendable {
        let failure: TransferFailure
        let retryAfter: String?
    }

    enum Next: Sendable {
        case retry
        /// No more attempts: the failure to report (saying how many attempts were made).
        case exhausted(TransferFailure)
        /// The server asked for a longer wait than afget makes; the failure says when to retry.
        case waitTooLong(TransferFailure)
        /// The run stopped during the wait.
        case stopped(StopReason)
    }

    /// Why an attempt's ending may be retried: a transient failure, or a final response with
    /// a transient status (DESIGN.md §8) that the caller does not accept as an answer and
    /// `policy` retries. Nil when the ending is final.
    static func transientProblem(
        response head: ResponseHead?, failure: TransferFailure?, sentCredentials: Bool, accepted: [ClosedRange<Int>] = [],
        policy: RetryPolicy = RetryPolicy()
    ) -> Problem? {
        if let head {
            let retryAfter = head.serverWait
            guard policy.retries(status: head.status, retryAfter: retryAfter, now: Int64(time(nil))),
                !accepted.contains(where: { $0.contains(head.status) })
            else {
                return nil
            }
            return Problem(failure: head.failure(sentCredentials: sentCredentials), retryAfter: retryAfter)
        }
        guard let failure, failure.isTransient else { return nil }
        return Problem(failure: failure, retryAfter: nil)
    }

    /// Counts a failed attempt, then waits before the next one (telling the renderer why and
    /// for how long), or gives up.
    mutating func next(after problem: Problem, item info: ItemInfo) async -> Next {
        switch decide(after: problem, item: info) {
        case .wait(let seconds):
            if let reason = await cancellation.wait(seconds: seconds) { return .stopped(reason) }
            return .retry
        case .giveUp(let next):
            return next
        }
    }

    /// What `next` waits for, or why it gives up.
    enum Decision {
        /// Seconds to wait before the next attempt (the renderer was told).
        case wait(seconds: Double)
        case giveUp(Next)
    }

    /// `next` without the wait, for a driver that waits for many downloads at once: counts the
    /// failed attempt and tells the renderer of the wait, or gives up.
    mutating func decide(after problem: Problem, item info: ItemInfo) -> Decision {
        failedAttempts += 1
        switch policy.decision(
            afterFailedAttempts: failedAttempts, of: problem.failure, retryAfter: problem.retryAfter, now: Int64(time(nil)))
        {
        case .giveUp:
            return .giveUp(.exhausted(finalFailure(problem.failure)))
        case .tooLongToWait(let seconds, let retryAfter):
            let refusal = ResponseFailure.waitTooLong(after: problem.failure.reason, seconds: seconds, retryAfter: retryAfter)
            return .giveUp(.waitTooLong(TransferFailure(.response(refusal))))
        case .retry(var delay):
            if let deadline { delay = min(delay, max(0, deadline - monotonicSeconds())) }
            renderer.handle(.retrying(info, attempt: failedAttempts, delay: delay, failure: problem.failure))
            return .wait(seconds: delay)
        }
    }

    /// A failure as reported at the end: a transient one says how many attempts it took.
    func finalFailure(_ failure: TransferFailure) -> TransferFailure {
        guard failedAttempts > 1, failure.isTransient else { return failure }
        if policy.retryCount(for: failure) < policy.maxRetries {
            return failure.noting(.firstContactTimeouts(failedAttempts, more: policy.maxRetries))
        }
        return failure.noting(.afterAttempts(failedAttempts))
    }
}
