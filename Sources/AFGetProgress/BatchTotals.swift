import AFGetSupport

/// Totals across the items of a run, for the total line of a batch:
/// "[37/120] 1.2 GiB 85 MiB/s ETA 0:42+ · 2 failed", or "[37 done] ..." while the batch's size is
/// not known (a list read from a pipe). The "+": items of a size not known yet are still to come.
struct BatchTotals {
    /// Items in all, when known.
    private(set) var expected: Int?
    /// Items started so far.
    private(set) var queued = 0
    private(set) var finished = 0
    private(set) var failed = 0
    /// Bytes of downloaded items.
    private var finishedBytes: Int64 = 0
    /// The latest count and announced length of each active item, and where its body started
    /// (bytes an earlier run received when it continues).
    private var active: [Int: (bytes: Int64, total: Int64?, offset: Int64)] = [:]
    /// Bytes this run received for attempts and items that ended.
    private var endedTransferred: Int64 = 0
    /// The batch's speed, from the bytes this run received over time: an item too quick to
    /// report progress still counts, and a continued one's earlier bytes do not.
    private var speed = SpeedEstimator()
    private var lastSampleAt = -Double.infinity
    private static let sampleInterval = 0.1

    mutating func record(_ event: ItemEvent, at now: Double = monotonicSeconds()) {
        switch event {
        case .expecting(let items):
            expected = items
        case .queued:
            queued += 1
        case .started(let info, let total, let offset):
            end(info.id)  // a retry or restart counts afresh
            active[info.id] = (offset ?? 0, total, offset ?? 0)
        case .progress(let info, let bytes, let total, _):
            active[info.id] = (bytes, total, active[info.id]?.offset ?? 0)
        case .done(let info, let bytes, let transferred, _, _):
            let offset = active.removeValue(forKey: info.id)?.offset ?? bytes - transferred
            endedTransferred += bytes - offset
            finishedBytes += bytes
            finished += 1
        case .skipped(let info, _):
            end(info.id)  // skipped after it started (-J naming an existing file, a peer's finished file)
            finished += 1
        case .failed(let info, _):
            // An item found unusable before it could start (a bad list line) was never queued,
            // but is one of the batch.
            if info.id >= 0 { end(info.id) } else { queued += 1 }
            finished += 1
            failed += 1
        case .retrying, .restarting, .notice, .interrupted, .summary:
            break
        }
        if now - lastSampleAt >= Self.sampleInterval {
            lastSampleAt = now
            speed.add(bytes: endedTransferred + active.values.reduce(0) { $0 + $1.bytes - $1.offset }, at: now)
        }
    }

    private mutating func end(_ id: Int) {
        guard let ended = active.removeValue(forKey: id) else { return }
        endedTransferred += ended.bytes - ended.offset
    }

    private var bytes: Int64 {
        finishedBytes + active.values.reduce(0) { $0 + $1.bytes }
    }

    /// Seconds until the bytes still to come of every item whose size is known are in, at the
    /// batch's recent speed. Items whose size is not known yet (waiting for their turn, or
    /// sent without a length) are left out rather than guessed at: a guess from other items'
    /// sizes is wrong whenever sizes differ, and a batch's ETA that jumps as items start is
    /// worse than one that only counts what it knows. Nil until a size and a speed are known.
    var secondsRemaining: Double? {
        let known = active.values.compactMap { item in item.total.flatMap { $0 > 0 ? max(0, $0 - item.bytes) : nil } }
        guard !known.isEmpty else { return nil }
        return SpeedEstimator.secondsRemaining(bytes: 0, total: known.reduce(0, +), speed: speed.bytesPerSecond)
    }

    /// Every item not finished is active with a known size, so the ETA is the whole batch's;
    /// otherwise it is a lower bound, shown with a "+".
    private var etaCoversEveryItem: Bool {
        guard let expected, finished + active.count >= expected else { return false }
        return active.values.allSatisfy { $0.total != nil }
    }

    var line: String { describe(withBytes: true) }

    /// The line without the byte count, for a terminal too narrow for the whole line.
    var shortLine: String { describe(withBytes: false) }

    private func describe(withBytes: Bool) -> String {
        let count = expected.map { "\(finished)/\($0)" } ?? "\(finished) done"
        var text = "[\(count)]" + (withBytes ? " " + Formatting.bytes(bytes) : "")
        text += " " + Formatting.speed(speed.bytesPerSecond)
        if let expected, finished < expected, let seconds = secondsRemaining {
            text += " ETA " + Formatting.duration(seconds) + (etaCoversEveryItem ? "" : "+")
        }
        if failed > 0 { text += " · \(failed) failed" }
        return text
    }
}
