import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport

/// One request and its response through a data task (no body) or an upload task (a body),
/// through the retry loop every transfer shares: transient failures and statuses are tried
/// again, the body re-sent from the start (standard input, which can be read only once, is not
/// retried). Upload progress is reported like a download's, counting bytes sent.
public final class ExchangeRunner: Sendable {
    private let manager: TaskManager
    private let renderer: SharedRenderer
    private let options: TransferOptions
    private let retry: RetryPolicy
    /// Response bodies are collected in memory up to this many bytes.
    public static let bodyLimit = 256 << 20

    /// The run stops with `manager`'s cancellation.
    public init(manager: TaskManager, renderer: SharedRenderer, options: TransferOptions, retry: RetryPolicy) {
        self.manager = manager
        self.renderer = renderer
        self.options = options
        self.retry = retry
    }

    /// What an exchange came to.
    public struct Result: Sendable {
        /// The final response, whatever its status (nil when no response arrived).
        public var response: TaskResponse?
        public var failure: TransferFailure?
        /// The run stopped (a signal) before the exchange ended.
        public var stopped: StopReason?
        /// How long the last attempt took.
        public var seconds = 0.0
    }

    /// Sends `request` until a final response arrives or retries run out. The result carries
    /// the last response even when its status is transient and retries ran out; judging it
    /// (and reporting it done or failed) is the caller's. A status in `accepted` is final even
    /// when it is one that is otherwise retried (`--accept-status 503`).
    public func run(_ request: HTTPRequest, info: ItemInfo, accepted: [ClosedRange<Int>] = []) async -> Result {
        var result = Result()
        let options = options.startingItem()
        var retries = RetryLoop(policy: retry, cancellation: manager.cancellation, renderer: renderer, deadline: options.deadline)
        renderer.handle(.queued(info))
        while true {
            let startedAt = monotonicSeconds()
            let (response, failure) = await attempt(request, info: info, options: options)
            if let reason = manager.cancellation.reason {
                result.stopped = reason
                return result
            }
            result.response = response
            result.failure = failure.map(retries.finalFailure)
            if response != nil { result.seconds = monotonicSeconds() - startedAt }
            guard
                let problem = RetryLoop.transientProblem(
                    response: response?.head, failure: failure, sentCredentials: false, accepted: accepted, policy: retry)
            else { return result }
            guard request.body.isRepeatable else {
                // What was read of standard input went out with this attempt: a second one
                // would send the rest alone, a body with its start missing.
                result.failure = result.failure.map { $0.noting(.notSentAgainStandardInput, transient: false) }
                return result
            }
            guard mayRepeat(request, after: response, failure) else {
                result.failure = result.failure.map { $0.noting(.notSentAgain(method: request.method), transient: false) }
                return result
            }
            switch await retries.next(after: problem, item: info) {
            case .retry:
                continue
            case .exhausted(let final):
                // A response's status is the caller's to judge; a failure says how many
                // attempts it took.
                if response == nil { result.failure = final }
                return result
            case .waitTooLong(let refusal):
                result.failure = refusal
                return result
            case .stopped(let reason):
                result.stopped = reason
                return result
            }
        }
    }

    /// A POST or PATCH may have done its work on the server before the exchange failed: sent
    /// again it could, say, place a second order. It is repeated only when it certainly did not
    /// go out, when the server said it did nothing (429, 503), or when the user asked (`--retry N`).
    private func mayRepeat(_ request: HTTPRequest, after response: TaskResponse?, _ failure: TransferFailure?) -> Bool {
        let idempotent = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(request.method.uppercased())
        guard !idempotent, !retry.retriesAnyMethod else { return true }
        if let status = response?.head.status { return status == 429 || status == 503 }
        return failure?.requestUnsent == true
    }

    private func attempt(_ request: HTTPRequest, info: ItemInfo, options: TransferOptions) async -> (
        TaskResponse?, TransferFailure?
    ) {
        var attempt = ExchangeAttempt(info: info, sending: request.body != .none, verbose: options.verbose)
        let task =
            attempt.sending
            ? manager.uploadTask(with: request, bodyLimit: Self.bodyLimit, options: options)
            : manager.dataTask(with: request, bodyLimit: Self.bodyLimit, options: options)
        manager.resume(task.id)
        for await event in task.events {
            let (said, ending) = attempt.take(event, at: monotonicSeconds())
            said.forEach(renderer.handle)
            if let ending { return (ending.response, ending.failure) }
        }
        return (nil, TransferFailure(.stop(.taskManagerStoppedEarly)))
    }
}
