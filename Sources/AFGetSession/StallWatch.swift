import AFGetSupport

/// When an attempt has stalled: no byte for `limit` seconds, or response headers not complete
/// that long after the request was sent, however slowly they drip. Sending a body is progress,
/// counted as bytes leave the socket rather than as libcurl hands them to the kernel, whose
/// send queue can hold minutes of a slow uplink: the headers' clock starts when the last byte
/// has left. Kept per attempt by the task's context and sampled by the curl loop's
/// housekeeping, a few times a second.
struct StallWatch {
    let limit: Double
    private let startedAt: Double
    private var lastActivityAt: Double
    private var lastActivityCount: Int64 = -1
    private var lastSentAt: Double
    private var lastSentCount: Int64 = 0

    init(limit: Double, startedAt: Double) {
        self.limit = limit
        self.startedAt = startedAt
        lastActivityAt = startedAt
        lastSentAt = startedAt
    }

    /// What the attempt has done so far, as the housekeeping sees it.
    struct Sample {
        /// Every byte moved through the connection: headers, body, request body.
        let activity: Int64
        /// Request bytes handed to the kernel, and those of them still in its send queue.
        let sent: Int64
        let unsent: Int64
        let headersComplete: Bool
        /// Seconds from the attempt's start until the request was sent (0: not yet).
        let requestSentAfter: Double
        let isSendingBody: Bool
    }

    /// Time spent waiting on purpose (`--limit-rate`'s allowance) is not a stall.
    mutating func excuse(at now: Double) {
        lastActivityAt = now
    }

    /// Starts both clocks again at `now`: the time before it was not watched (the process was
    /// stopped by Ctrl-Z or SIGSTOP), so no silence in it counts as a stall.
    mutating func restartClocks(at now: Double) {
        lastActivityAt = now
        lastSentAt = now
    }

    /// The failure that ends a stalled attempt, or nil. Activity is timed `now`; silence is
    /// judged as of `judged`, earlier while a gap in the watching is not explained yet.
    mutating func failure(_ sample: Sample, at now: Double, judgedAt judged: Double? = nil) -> TransferFailure? {
        let judged = judged ?? now
        if sample.activity != lastActivityCount {
            lastActivityCount = sample.activity
            lastActivityAt = now
        }
        guard sample.headersComplete else {
            let leftSocket = sample.sent - sample.unsent
            if leftSocket != lastSentCount {
                lastSentCount = leftSocket
                lastSentAt = now
            }
            guard sample.requestSentAfter > 0, judged - max(startedAt + sample.requestSentAfter, lastSentAt) > limit else {
                return nil
            }
            let isSending = sample.isSendingBody || sample.unsent > 0
            return stalled(isSending ? .requestBody : .responseHeaders)
        }
        guard judged - lastActivityAt > limit else { return nil }
        return stalled(.data)
    }

    private func stalled(_ waiting: ConnectionFailure.StalledPart) -> TransferFailure {
        TransferFailure(.connection(.stalled(waiting: waiting, seconds: limit)), transient: true)
    }
}
