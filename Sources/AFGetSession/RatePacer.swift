/// Paces a transfer's received bytes (and, with a pacer of its own, a request body's sent ones) to `--limit-rate` (libcurl 7.88's own limit let 3 MB through
/// at 1 MiB/s in half a second on loopback, as `curl --limit-rate` does too). The write callback
/// asks before taking bytes; while ahead of the allowance the transfer is paused, and the curl
/// loop's housekeeping lets it go on once the allowance has caught up.
struct RatePacer {
    let bytesPerSecond: Int64
    private var startedAt: Double?
    /// A little ahead is allowed, so the transfer is not paused for every piece.
    private var burst: Int64 { max(64 << 10, bytesPerSecond / 10) }

    init(bytesPerSecond: Int64) {
        self.bytesPerSecond = bytesPerSecond
    }

    /// Grants no allowance for `seconds` the process did not run (stopped by Ctrl-Z), so it
    /// does not come back to a burst at full speed.
    mutating func skip(_ seconds: Double) {
        startedAt = startedAt.map { $0 + seconds }
    }

    /// Whether `received` (or sent) bytes so far are ahead of the allowance at `now`.
    mutating func isAhead(received: Int64, now: Double) -> Bool {
        let start = startedAt ?? now
        startedAt = start
        let allowed = Double(bytesPerSecond) * (now - start) + Double(burst)
        return Double(received) >= allowed
    }
}
