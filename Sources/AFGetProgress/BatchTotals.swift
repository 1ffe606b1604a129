import AFGetSupport

/// Totals across the items of a run, for the total line of a batch:
/// "[37/120] 1.2 GiB 85 MiB/s ETA ~0:42 · 2 failed", or "[37 done] ..." while the batch's size is
/// not known (a list read from a pipe). The "~": the ETA guesses the size of items not known yet.
struct BatchTotals {
    /// Items in all, when known.
    private(set) var expected: Int?
    /// Items started so far.
    private(set) var queued = 0
    private(set) var finished = 0
    private(set) var failed = 0
    /// Bytes of downloaded items, and how many there were: what an item is like, so far.
    private var finishedBytes: Int64 = 0
    private var downloaded = 0
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
            downloaded += 1
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
        case .connecting, .connected, .retrying, .restarting, .notice, .interrupted, .summary, .sourceDropped,
            .sourcesServed:
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

    /// The bytes still to come, and whether some of them are a guess. Items whose size is not
    /// known yet (waiting for their turn, or sent without a length) are taken to be the size of
    /// the items seen so far, on average: the best guess a person would make, marked as one.
    /// Nil while no item's size is known.
    private var bytesToCome: (bytes: Int64, guessed: Bool)? {
        let sized = active.values.compactMap(\.total)
        let seen = downloaded + sized.count
        guard seen > 0 else { return nil }
        let average = (finishedBytes + sized.reduce(0, +)) / Int64(seen)
        var bytes: Int64 = 0
        var guesses = 0
        for item in active.values {
            if let total = item.total {
                bytes += max(0, total - item.bytes)
            } else {
                bytes += max(0, average - item.bytes)
                guesses += 1
            }
        }
        let waiting = max(0, (expected ?? 0) - finished - active.count)
        bytes += Int64(waiting) * average
        return (bytes, guesses + waiting > 0)
    }

    /// Seconds until the batch is done at its recent speed, and whether that is a guess (see
    /// `bytesToCome`). Nil until a size and a speed are known.
    var secondsRemaining: (seconds: Double, guessed: Bool)? {
        guard let toCome = bytesToCome,
            let seconds = SpeedEstimator.secondsRemaining(bytes: 0, total: toCome.bytes, speed: speed.bytesPerSecond)
        else { return nil }
        return (seconds, toCome.guessed)
    }

    var line: String { describe(withBytes: true) }

    /// The line without the byte count, for a terminal too narrow for the whole line.
    var shortLine: String { describe(withBytes: false) }

    private func describe(withBytes: Bool) -> String {
        let count = expected.map { "\(finished)/\($0)" } ?? "\(finished) done"
        var text = "[\(count)]" + (withBytes ? " " + Formatting.bytes(bytes) : "")
        text += " " + Formatting.speed(speed.bytesPerSecond)
        if let expected, finished < expected, let remaining = secondsRemaining {
            text += " ETA " + (remaining.guessed ? "~" : "") + Formatting.duration(remaining.seconds)
        }
        if failed > 0 { text += " · \(failed) failed" }
        return text
    }
}
