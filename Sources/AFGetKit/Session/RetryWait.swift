import Glibc

/// Waits out the delay before another attempt, as RetryPolicy decides, and gives up early
/// when the run is interrupted (Ctrl-C during a backoff ends the run at once).
struct RetryWait: Sendable {
    let policy: RetryPolicy
    let interrupts: InterruptStatus?

    enum Result: Sendable {
        case retry
        case giveUp
        /// The server asked for a longer wait than afget makes; the failure says when to retry.
        case tooLongToWait(TransferFailure)
    }

    /// After `failedAttempts` failures; `announce` is told the delay before the wait starts.
    func wait(afterFailedAttempts failedAttempts: Int, reason: String, retryAfter: String?,
              announce: (Double) -> Void) async -> Result {
        switch policy.decision(afterFailedAttempts: failedAttempts, retryAfter: retryAfter, now: Int64(time(nil))) {
        case .giveUp:
            return .giveUp
        case .tooLongToWait(let message):
            return .tooLongToWait(TransferFailure(.httpStatus, "\(reason): \(message)"))
        case .retry(let delay):
            announce(delay)
            let deadline = monotonicSeconds() + delay
            while monotonicSeconds() < deadline {
                if interrupts?.wasInterrupted == true { return .giveUp }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return interrupts?.wasInterrupted == true ? .giveUp : .retry
        }
    }
}
