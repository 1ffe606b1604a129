/// Every transfer's received bytes paced together (`--limit-total-rate`, aria2c's
/// `--max-overall-download-limit`): each write callback asks it as well as its own pacer, and
/// a transfer ahead of the run's allowance is paused until the curl loop's housekeeping finds
/// the allowance caught up. Owned by the curl thread, shared by its transfers.
final class RunRate {
    private var pacer: RatePacer
    private var received: Int64 = 0

    init(bytesPerSecond: Int64) {
        pacer = RatePacer(bytesPerSecond: bytesPerSecond)
    }

    /// Whether the run has received more than its allowance at `now`.
    func isAhead(now: Double) -> Bool {
        pacer.isAhead(received: received, now: now)
    }

    /// A transfer took `count` more bytes.
    func add(_ count: Int) {
        received += Int64(count)
    }

    /// Grants nothing for time the process did not run (see `RatePacer.skip`).
    func skip(_ seconds: Double) {
        pacer.skip(seconds)
    }
}
