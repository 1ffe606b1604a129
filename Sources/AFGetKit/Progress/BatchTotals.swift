/// Totals across the items of a run, for the total line of a batch:
/// "[37/120] 1.2 GiB 85 MiB/s ETA 0:42 · 2 failed".
struct BatchTotals {
    private(set) var queued = 0
    private(set) var finished = 0
    private(set) var failed = 0
    /// Bytes of downloaded items, and how many there are.
    private var finishedBytes: Int64 = 0
    private var downloaded = 0
    /// The latest count and announced length of each active item.
    private var active: [Int: (bytes: Int64, total: Int64?)] = [:]
    /// The batch's speed, from its byte count over time: an item too quick to report progress
    /// still counts.
    private var speed = SpeedEstimator()
    private var lastSampleAt = -Double.infinity
    private static let sampleInterval = 0.1

    mutating func record(_ event: ItemEvent, at now: Double = monotonicSeconds()) {
        switch event {
        case .queued:
            queued += 1
        case .started(let info, let total, let offset):
            active[info.id] = (offset ?? 0, total)
        case .progress(let info, let bytes, let total, _):
            active[info.id] = (bytes, total)
        case .done(let info, let bytes, _, _, _):
            active[info.id] = nil
            finishedBytes += bytes
            downloaded += 1
            finished += 1
        case .skipped:
            finished += 1
        case .failed(let info, _):
            // An item found unusable before the run (a bad list line) was never queued, but is
            // one of the batch.
            if info.id >= 0 { active[info.id] = nil } else { queued += 1 }
            finished += 1
            failed += 1
        case .retrying, .restarting, .notice, .interrupted, .summary:
            break
        }
        if now - lastSampleAt >= Self.sampleInterval {
            lastSampleAt = now
            speed.add(bytes: bytes, at: now)
        }
    }

    private var bytes: Int64 {
        finishedBytes + active.values.reduce(0) { $0 + $1.bytes }
    }

    /// Seconds until every item is in at the current speed; an item whose length is not known
    /// yet (not started, or sent without one) is taken at the average of those known. Nil until
    /// a length and a speed are known.
    var secondsRemaining: Double? {
        let known = active.values.compactMap(\.total)
        let knownCount = downloaded + known.count
        guard knownCount > 0 else { return nil }
        let average = Double(finishedBytes + known.reduce(0, +)) / Double(knownCount)
        let unknownActive = active.values.filter { $0.total == nil }
        let waiting = max(0, queued - finished - active.count)
        var remaining = Double(waiting) * average
        remaining += Double(active.values.reduce(0) { $0 + max(0, ($1.total ?? 0) - $1.bytes) })
        remaining += unknownActive.reduce(0) { $0 + max(0, average - Double($1.bytes)) }
        return SpeedEstimator.secondsRemaining(bytes: 0, total: Int64(remaining), speed: speed.bytesPerSecond)
    }

    var line: String {
        var text = "[\(finished)/\(queued)] \(Formatting.bytes(bytes)) \(Formatting.speed(speed.bytesPerSecond))"
        if finished < queued, let seconds = secondsRemaining { text += " ETA " + Formatting.duration(seconds) }
        if failed > 0 { text += " · \(failed) failed" }
        return text
    }
}
