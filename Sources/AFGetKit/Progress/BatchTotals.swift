/// Totals across the items of a run, for the total line of a batch: "[37/120] 1.2 GiB 85 MiB/s · 2 failed".
struct BatchTotals {
    private(set) var queued = 0
    private(set) var finished = 0
    private(set) var failed = 0
    /// Bytes of finished items, plus the latest count and speed of each active one.
    private var finishedBytes: Int64 = 0
    private var active: [Int: (bytes: Int64, speed: Double)] = [:]

    mutating func record(_ event: ItemEvent) {
        switch event {
        case .queued:
            queued += 1
        case .started(let info, _, let offset):
            active[info.id] = (offset ?? 0, 0)
        case .progress(let info, let bytes, _, let speed):
            active[info.id] = (bytes, speed)
        case .done(let info, let bytes, _, _, _):
            active[info.id] = nil
            finishedBytes += bytes
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
    }

    var line: String {
        let bytes = finishedBytes + active.values.reduce(0) { $0 + $1.bytes }
        let speed = active.values.reduce(0) { $0 + $1.speed }
        var text = "[\(finished)/\(queued)] \(Formatting.bytes(bytes)) \(Formatting.speed(speed))"
        if failed > 0 { text += " · \(failed) failed" }
        return text
    }
}
