import AFGetSupport

/// The wording of lines for people, shared by every renderer: each line as a `MessageLine`,
/// whose pieces say what may be shortened or left out on a narrow terminal, and as the whole
/// text a log gets.
enum HumanMessages {
    /// The whole line an event is told with, when it is told as one: an item done, skipped,
    /// failed, retried or started over, a notice, the interruption. Nil for the events each
    /// renderer shows its own way (queued, started, progress, the summary). In a batch, an item
    /// another afget is downloading is told once, in the summary: two runs sharing a list meet
    /// on many items, and that is how they share it.
    static func line(for event: ItemEvent, inBatch: Bool) -> String? {
        message(for: event, inBatch: inBatch)?.text
    }

    /// `line(for:inBatch:)` in pieces.
    static func message(for event: ItemEvent, inBatch: Bool) -> MessageLine? {
        switch event {
        case .failed(_, let itemFailure) where inBatch && itemFailure.failure.kind == .destinationBusy:
            nil
        case .done(let info, let bytes, let transferred, let seconds, _):
            doneLine(info, bytes: bytes, transferred: transferred, seconds: seconds)
        case .skipped(let info, let reason):
            skippedLine(info, reason: reason)
        case .failed(_, let itemFailure):
            failureLine(itemFailure)
        case .retrying(let info, let attempt, let delay, let failure):
            retryingLine(info, attempt: attempt, delay: delay, failure: failure)
        case .restarting(let info, let reason):
            MessageLine(restarting(info, because: reason))
        case .sourceDropped(let info, let source, let reason):
            sourceDroppedLine(info, source: source, reason: reason)
        case .notice(let text):
            // afget's own notices may have their URLs shortened; `-v` lines (headers, "* …")
            // were asked for as they are.
            text.hasPrefix("afget: ") ? MessageLine.words(text) : MessageLine(text)
        case .interrupted(_, let kept):
            // Said last, once the bars are gone, and its advice is the point: whole.
            MessageLine(interrupted(kept))
        case .expecting, .queued, .connecting, .connected, .started, .progress, .summary, .sourcesServed:
            nil
        }
    }

    /// "afget: f.iso: dropping source URL (REASON); going on with the others".
    static func sourceDropped(_ info: ItemInfo, source: String, reason: String) -> String {
        sourceDroppedLine(info, source: source, reason: reason).text
    }

    /// Above the bars, the source and the reason stay; that the others go on is left out first.
    private static func sourceDroppedLine(_ info: ItemInfo, source: String, reason: String) -> MessageLine {
        var line = MessageLine("afget: \(info.path): dropping source ")
        line.addURL(source)
        line.add(" (\(reason))")
        line.addDetail("; going on with the others", dropOrder: 1)
        return line
    }

    static func failure(_ failure: ItemFailure) -> String {
        failureLine(failure).text
    }

    /// "afget: ITEM: CAUSE": an item named by its URL may have the URL shortened.
    private static func failureLine(_ failure: ItemFailure) -> MessageLine {
        var line = MessageLine("afget: ")
        if holdsSchemeSeparator(failure.item) { line.addURL(failure.item) } else { line.add(failure.item) }
        line.add(": \(failure.failure.message)")
        return line
    }

    static func skipped(_ info: ItemInfo, reason: SkipReason) -> String {
        skippedLine(info, reason: reason).text
    }

    /// "afget: skipping f.iso: already exists (…)": the advice is left out first.
    private static func skippedLine(_ info: ItemInfo, reason: SkipReason) -> MessageLine {
        var line = MessageLine("afget: skipping \(info.path): \(reason.words)")
        switch reason.advice {
        case .seeOnExists:
            line.addDetail(" (see --on-exists)", dropOrder: 1)
        case .continueOrReplace:
            line.addDetail(" (if it is incomplete: -c continues it, --on-exists overwrite replaces it)", dropOrder: 1)
        case .none:
            break
        }
        return line
    }

    /// "f.iso: done, 4.0 GiB in 1:02, 66.1 MiB/s"; a continued download says what this run
    /// received, and its speed counts only that. Fitted, the speed goes first, then what this
    /// run received, then the time.
    static func done(_ info: ItemInfo, bytes: Int64, transferred: Int64, seconds: Double) -> String {
        doneLine(info, bytes: bytes, transferred: transferred, seconds: seconds).text
    }

    private static func doneLine(_ info: ItemInfo, bytes: Int64, transferred: Int64, seconds: Double) -> MessageLine {
        var line = MessageLine("\(info.lineName): done, \(Formatting.bytes(bytes))")
        if transferred < bytes { line.addDetail(" (\(Formatting.bytes(transferred)) this run)", dropOrder: 2) }
        line.addDetail(" in \(Formatting.took(seconds))", dropOrder: 3)
        if seconds > 0 { line.addDetail(", " + Formatting.speed(Double(transferred) / seconds), dropOrder: 1) }
        return line
    }

    /// "f.iso: started (4.0 GiB) from URL", or for a continued download "f.iso: continuing at
    /// 37% (1.5 GiB of 4.0 GiB) from URL": the same line in a log and above the bars. Fitted,
    /// the URL is shortened, then left out, then the sizes.
    static func started(_ info: ItemInfo, total: Int64?, offset: Int64?) -> String {
        startedLine(info, total: total, offset: offset).text
    }

    static func startedLine(_ info: ItemInfo, total: Int64?, offset: Int64?) -> MessageLine {
        var line: MessageLine
        if let offset {
            if let total, total > 0 {
                line = MessageLine("\(info.lineName): continuing at \(Formatting.percent(offset, of: total))%")
                line.addDetail(" (\(Formatting.bytes(offset)) of \(Formatting.bytes(total)))", dropOrder: 2)
            } else {
                line = MessageLine("\(info.lineName): continuing at \(Formatting.bytes(offset))")
            }
        } else {
            line = MessageLine("\(info.lineName): started")
            if let total { line.addDetail(" (\(Formatting.bytes(total)))", dropOrder: 2) }
        }
        line.addDetail(" from ", dropOrder: 1)
        line.addURL(info.url, dropOrder: 1)
        return line
    }

    /// "connecting to example.org:443": a bar's row while its item waits for a connection.
    static func connecting(to host: String) -> String {
        "connecting to \(host)"
    }

    /// "f.iso: connecting to example.org:443": the same, as a log's line.
    static func connecting(_ info: ItemInfo, to host: String) -> String {
        "\(info.lineName): \(connecting(to: host))"
    }

    static func retrying(_ info: ItemInfo, attempt: Int, delay: Double, failure: TransferFailure) -> String {
        retryingLine(info, attempt: attempt, delay: delay, failure: failure).text
    }

    private static func retryingLine(_ info: ItemInfo, attempt: Int, delay: Double, failure: TransferFailure) -> MessageLine {
        var line = MessageLine("afget: ")
        line.addURL(info.url)
        line.add(": \(failure.message); retrying in \(Formatting.elapsed(delay))")
        line.addDetail(" (attempt \(attempt + 1))", dropOrder: 1)
        return line
    }

    static func restarting(_ info: ItemInfo, because reason: ResumeFailure) -> String {
        "afget: \(info.path): cannot continue (\(reason.words)); starting over"
    }

    /// The run's last line after a signal: what running the same command again does with what
    /// was kept, and nothing it cannot do.
    static func interrupted(_ kept: KeptForNextRun) -> String {
        switch kept {
        case .continues: "afget: interrupted; resume data saved. Run the same command again to continue."
        case .startsOver: "afget: interrupted; what arrived cannot be continued: running the same command again starts it over."
        case .nothing: "afget: interrupted before any data arrived: nothing to continue."
        }
    }

    /// The summary line, then the failed items (the first ten, and how many more).
    static func summary(_ summary: RunSummary) -> [String] {
        var lines = [summaryLine(summary)]
        lines += summary.hosts.map { "  \(hostNote($0))" }
        lines += summary.firstFailures.map { "  \($0)" }
        if summary.failed > summary.firstFailures.count {
            lines.append("  and \(summary.failed - summary.firstFailures.count) more: see --report")
        }
        return lines
    }

    /// "https://example.org:443: asked to wait once, 12 items held back" (Retry-After, or an S3
    /// store's SlowDown).
    static func hostNote(_ note: HostNote) -> String {
        func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }
        var said: [String] = []
        if note.holds > 0 {
            let times = note.holds == 1 ? "once" : "\(note.holds) times"
            said.append("asked to wait \(times), \(items(note.itemsHeld)) held back")
        }
        if let reason = note.givenUp {
            said.append("given up (\(reason.hostFailureWords)), \(items(note.notTried)) not tried")
        }
        return "\(note.host): \(said.joined(separator: "; "))"
    }

    /// "afget: 3 downloaded, 1 skipped, 1 failed; 2.0 MiB in 0:04", with what else the run met.
    static func summaryLine(_ summary: RunSummary) -> String {
        "afget: \(summary.downloaded) \(summary.isUpload ? "uploaded" : "downloaded"), \(summary.skipped) skipped, \(summary.failed) failed"
            + (summary.interrupted > 0 ? ", \(summary.interrupted) interrupted; " : "; ")
            + "\(Formatting.bytes(summary.bytes)) in \(Formatting.took(summary.seconds))"
            + (summary.shard.map { "; shard \($0.name): \($0.taken) of \($0.seen) items" } ?? "")
            + (summary.crawl.map(crawled) ?? "")
            + (summary.busy > 0
                ? "; \(summary.busy) \(summary.busy == 1 ? "item was" : "items were") being downloaded by another afget"
                : "")
            + (notInSums(summary).map { "; \($0)" } ?? "")
    }

    /// "; 4 pages read, 12 links skipped by rule; links converted in 4 pages": what a recursive
    /// download adds.
    private static func crawled(_ crawl: CrawlCount) -> String {
        func pages(_ count: Int) -> String { count == 1 ? "1 page" : "\(count) pages" }
        let links = crawl.skippedTotal == 1 ? "1 link" : "\(crawl.skippedTotal) links"
        return "; \(pages(crawl.pagesRead)) read, \(links) skipped by rule"
            + (crawl.pagesConverted.map { "; links converted in \(pages($0))" } ?? "")
    }

    /// "2 files not in SHA256SUMS, not checked": in the summary line of a batch, and on its own
    /// line after a single item; nil when every item had a checksum.
    static func notInSums(_ summary: RunSummary) -> String? {
        guard let file = summary.sumsFile, summary.notInSums > 0 else { return nil }
        return "\(summary.notInSums) \(summary.notInSums == 1 ? "file" : "files") not in \(file), not checked"
    }
}
