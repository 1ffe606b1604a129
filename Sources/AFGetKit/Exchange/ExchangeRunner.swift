/// One request and its response through a data task (no body) or an upload task (a body),
/// with retries: transient failures and statuses are tried again, the body re-sent from the
/// start (standard input, which can be read only once, is not retried). Upload progress is
/// reported like a download's, counting bytes sent.
public final class ExchangeRunner: Sendable {
    private let manager: TaskManager
    private let renderer: SharedRenderer
    private let options: TransferOptions
    private let retry: RetryPolicy
    private let interrupts: InterruptStatus?
    /// Response bodies are collected in memory up to this many bytes.
    public static let bodyLimit = 256 << 20

    public init(manager: TaskManager, renderer: SharedRenderer, options: TransferOptions, retry: RetryPolicy,
                interrupts: InterruptStatus?) {
        self.manager = manager
        self.renderer = renderer
        self.options = options
        self.retry = retry
        self.interrupts = interrupts
    }

    public struct Outcome: Sendable {
        /// The final response, whatever its status (nil when no response arrived).
        public var response: TaskResponse?
        public var failure: TransferFailure?
        public var attempts = 0
        public var interrupted = false
        /// How long the last attempt took.
        public var seconds = 0.0
    }

    /// Sends `request` until a final response arrives or retries run out. The outcome carries
    /// the last response even when its status is transient and retries ran out; judging it
    /// (and reporting it done or failed) is the caller's. A status in `accepted` is final even
    /// when it is one that is otherwise retried (`--accept-status 503`).
    public func run(_ request: HTTPRequest, info: ItemInfo, accepted: [ClosedRange<Int>] = []) async -> Outcome {
        var outcome = Outcome()
        let waiting = RetryWait(policy: retry, interrupts: interrupts)
        renderer.handle(.queued(info))
        while true {
            outcome.attempts += 1
            let startedAt = monotonicSeconds()
            let (response, failure) = await attempt(request, info: info)
            if interrupts?.wasInterrupted == true {
                outcome.interrupted = true
                return outcome
            }
            outcome.response = response
            outcome.failure = failure
            let retryAfter: String?
            let reason: String
            if let response {
                outcome.seconds = monotonicSeconds() - startedAt
                let status = response.head.status
                guard RetryPolicy.isTransient(status: status), !accepted.contains(where: { $0.contains(status) }) else {
                    return outcome
                }
                retryAfter = response.head.value(of: "Retry-After")
                reason = response.head.failure(sentCredentials: false).message
            } else if let failure, failure.isTransient {
                retryAfter = nil
                reason = failure.message
            } else {
                return outcome
            }
            guard request.body.isRepeatable else { return outcome }
            let result = await waiting.wait(afterFailedAttempts: outcome.attempts, reason: reason, retryAfter: retryAfter) {
                renderer.handle(.retrying(info, attempt: outcome.attempts, delay: $0, reason: reason))
            }
            switch result {
            case .retry:
                continue
            case .giveUp:
                outcome.interrupted = interrupts?.wasInterrupted == true
                return outcome
            case .tooLongToWait(let failure):
                outcome.failure = failure
                return outcome
            }
        }
    }

    private func attempt(_ request: HTTPRequest, info: ItemInfo) async -> (TaskResponse?, TransferFailure?) {
        let sending = request.body != .none
        let task = sending
            ? manager.uploadTask(with: request, bodyLimit: Self.bodyLimit, options: options)
            : manager.dataTask(with: request, bodyLimit: Self.bodyLimit, options: options)
        manager.resume(task.id)
        var speed = SpeedEstimator()
        var started = false
        for await event in task.events {
            switch event {
            case .started(_, let head):
                guard !sending, !started else { continue }
                started = true
                renderer.handle(.started(info, total: head.contentLength, offset: nil))
            case .progress(_, let progress):
                let bytes = sending ? progress.sent : progress.received
                let total = sending ? progress.expectedToSend : progress.expected
                if !started {
                    started = true
                    renderer.handle(.started(info, total: total, offset: nil))
                }
                speed.add(bytes: bytes, at: monotonicSeconds())
                renderer.handle(.progress(info, bytes: bytes, total: total, speed: speed.bytesPerSecond))
            case .verbose(_, let line):
                renderer.handle(.notice(line))
            case .redirected(_, _, let target):
                if options.verbose {
                    renderer.handle(.notice("* following redirect to \(TerminalText.clean(removingPassword(from: target)))"))
                }
            case .suspended, .resumed:
                continue
            case .completed(_, let response):
                return (response, nil)
            case .failed(_, let failure, _):
                return (nil, failure)
            case .canceled:
                return (nil, TransferFailure(.internalError, "canceled"))
            }
        }
        return (nil, TransferFailure(.internalError, "the task manager stopped early"))
    }
}
