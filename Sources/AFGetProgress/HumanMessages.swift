import AFGetSupport

/// The wording of lines for people, shared by every renderer.
enum HumanMessages {
    /// The whole line an event is told with, when it is told as one: an item done, skipped,
    /// failed, retried or started over, a notice, the interruption. Nil for the events each
    /// renderer shows its own way (queued, started, progress, the summary). In a batch, an item
    /// another afget is downloading is told once, in the summary: two runs sharing a list meet
    /// on many items, and that is how they share it.
    static func line(for event: ItemEvent, inBatch: Bool) -> String? {
        switch event {
        case .failed(_, let itemFailure) where inBatch && itemFailure.failure.kind == .destinationBusy:
            nil
        case .done(let info, let bytes, let transferred, let seconds, _):
            done(info, bytes: bytes, transferred: transferred, seconds: seconds)
        case .skipped(let info, let reason):
            skipped(info, reason: reason)
        case .failed(_, let itemFailure):
            failure(itemFailure)
        case .retrying(let info, let attempt, let delay, let reason):
            retrying(info, attempt: attempt, delay: delay, reason: reason)
        case .restarting(let info, let reason):
            restarting(info, reason: reason)
        case .notice(let text):
            text
        case .interrupted(_, let dataKept):
            interrupted(dataKept: dataKept)
        case .expecting, .queued, .started, .progress, .summary:
            nil
        }
    }

    static func failure(_ failure: ItemFailure) -> String {
        "afget: \(failure.item): \(failure.failure.message)"
    }

    static func skipped(_ info: ItemInfo, reason: String) -> String {
        "afget: skipping \(info.path): \(reason) (see --on-exists)"
    }

    /// "f.iso: done, 4.0 GiB in 1:02, 66.1 MiB/s"; a continued download says what this run
    /// received, and its speed counts only that.
    static func done(_ info: ItemInfo, bytes: Int64, transferred: Int64, seconds: Double) -> String {
        let speed = seconds > 0 ? ", " + Formatting.speed(Double(transferred) / seconds) : ""
        let thisRun = transferred < bytes ? " (\(Formatting.bytes(transferred)) this run)" : ""
        return "\(info.lineName): done, \(Formatting.bytes(bytes))\(thisRun) in \(Formatting.elapsed(seconds))\(speed)"
    }

    /// "f.iso: started (4.0 GiB) from URL", or for a continued download "f.iso: continuing at
    /// 37% (1.5 GiB of 4.0 GiB) from URL": the same line in a log and above the bars.
    static func started(_ info: ItemInfo, total: Int64?, offset: Int64?) -> String {
        let source = " from \(info.url)"
        guard let offset else {
            return "\(info.lineName): started" + (total.map { " (\(Formatting.bytes($0)))" } ?? "") + source
        }
        guard let total, total > 0 else { return "\(info.lineName): continuing at \(Formatting.bytes(offset))" + source }
        let figures = "\(Formatting.bytes(offset)) of \(Formatting.bytes(total))"
        return "\(info.lineName): continuing at \(Formatting.percent(offset, of: total))% (\(figures))" + source
    }

    static func retrying(_ info: ItemInfo, attempt: Int, delay: Double, reason: String) -> String {
        "afget: \(info.url): \(reason); retrying in \(Formatting.elapsed(delay)) (attempt \(attempt + 1))"
    }

    static func restarting(_ info: ItemInfo, reason: String) -> String {
        "afget: \(info.path): cannot continue (\(reason)); starting over"
    }

    static func interrupted(dataKept: Bool) -> String {
        "afget: interrupted\(dataKept ? "; resume data saved" : ""). Run the same command again to continue."
    }

    /// The summary line, then the failed items (the first ten, and how many more).
    static func summary(_ summary: RunSummary) -> String {
        var lines = [summaryLine(summary)]
        lines += summary.firstFailures.map { "  \($0)" }
        if summary.failed > summary.firstFailures.count {
            lines.append("  and \(summary.failed - summary.firstFailures.count) more: see --report")
        }
        return lines.joined(separator: "\n")
    }

    /// "afget: 3 downloaded, 1 skipped, 1 failed; 2.0 MiB in 0:04", with what else the run met.
    static func summaryLine(_ summary: RunSummary) -> String {
        "afget: \(summary.downloaded) \(summary.isUpload ? "uploaded" : "downloaded"), \(summary.skipped) skipped, \(summary.failed) failed"
            + (summary.interrupted > 0 ? ", \(summary.interrupted) interrupted; " : "; ")
            + "\(Formatting.bytes(summary.bytes)) in \(Formatting.elapsed(summary.seconds))"
            + (summary.shard.map { "; shard \($0.name): \($0.taken) of \($0.seen) items" } ?? "")
            + (summary.busy > 0
                ? "; \(summary.busy) \(summary.busy == 1 ? "item was" : "items were") being downloaded by another afget"
                : "")
    }
}
