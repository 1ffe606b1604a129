import AFGetProgress
import AFGetSession
import AFGetSupport
import Glibc

/// Runs download items through the task manager, up to `concurrency` at a time, and adds up
/// the results. The items' jobs run in one `DownloadDriver`.
public final class DownloadRunner: Sendable {
    private let environment: DownloadEnvironment
    private var renderer: SharedRenderer { environment.renderer }
    private var settings: DownloadSettings { environment.settings }
    private var cancellation: Cancellation { environment.cancellation }
    /// Transfers at once (`-j`), requests waiting at the gate and files waiting to be moved
    /// into place, within the limit on open files.
    private let admission: ItemAdmission

    /// Refuses (exit 3) when the limit on open files leaves no room for a transfer. The run
    /// stops with `manager`'s cancellation.
    public init(manager: TaskManager, renderer: SharedRenderer, settings: DownloadSettings) throws(TransferFailure) {
        admission = try ItemAdmission(for: settings)
        var settings = settings
        settings.transfer.gate = admission.gate
        environment = DownloadEnvironment(
            manager: manager, renderer: renderer, settings: settings, itemsAhead: admission.itemsAhead)
    }

    /// Downloads every item and reports the totals; the summary's exit code follows DESIGN.md §3
    /// (an interruption overrides every other code). `alreadyFailed` are items found unusable
    /// before any transfer (a bad list line, a bad resume file); they are reported and counted.
    /// Items come from `feed` as they are needed; each item's record goes to `report` as the
    /// item ends, and none is kept.
    public func run(_ feed: ItemFeed, alreadyFailed: [ItemFailure] = [], report: RunReport? = nil) async -> RunSummary {
        let startedAt = monotonicSeconds()
        var tally = Tally(report: report, cancellation: cancellation)
        /// The id of the last item taken from the feed: an unusable one comes after it in list order.
        var lastItemID = -1
        /// An item found unusable before it could start: told, counted and reported.
        func unusable(_ failure: ItemFailure) {
            let record = Self.record(of: failure)
            renderer.handle(.failed(record.info, failure))
            tally.add(record, unusableAfter: lastItemID)
        }
        alreadyFailed.forEach(unusable)
        // The total line counts the whole batch ("[37/120]") when its size is known.
        if let count = feed.knownCount { renderer.handle(.expecting(items: count + alreadyFailed.count)) }
        if let limit = admission.narrowedByOpenFileLimit, settings.transfer.verbose {
            renderer.handle(
                .notice(
                    "* \(admission.concurrency) transfers at once, not \(settings.concurrency): the limit on open files is \(limit)"
                ))
        }
        var stopping = false
        // The next item starts when a transfer ends, while finished files are still being moved
        // into place (a batch of small files then waits on the disk and the network at once).
        let driver = DownloadDriver(
            environment: environment,
            admission: admission
        ) { record in
            tally.add(record)
            if case .failed = record.outcome, self.settings.failsFast { stopping = true }
        }
        // The feed wakes the driver when it has more after saying it had nothing yet; a stop
        // wakes it too, also while it waits for a list's next line with nothing running.
        let checkAgain = driver.checkAgain
        feed.onMore { checkAgain() }
        cancellation.onStop { _ in checkAgain() }
        defer { feed.close() }
        let setAside = await driver.run { driver in
            while !stopping, !cancellation.isRequested, driver.mayStartAnother() {
                switch feed.next() {
                case .item(let item):
                    lastItemID = item.plannedInfo.id
                    await driver.start(item)
                case .unusable(let failure):
                    unusable(failure)
                case .notice(let line):
                    renderer.handle(.notice(line))
                case .notYet:
                    return true
                case .end:
                    return false
                }
            }
            return !(stopping || cancellation.isRequested)
        }
        // Items a signal or --fail-fast kept from starting are in the report too: those set
        // aside for their hosts, then the rest of the list.
        for item in setAside { tally.add(notStarted(item)) }
        notStarted: while true {
            switch feed.nextAfterStop() {
            case .item(let item):
                lastItemID = item.plannedInfo.id
                tally.add(notStarted(item))
            case .unusable(let failure):
                tally.add(Self.record(of: failure), unusableAfter: lastItemID)
            case .notice, .notYet:
                continue
            case .end:
                break notStarted
            }
        }
        var summary = tally.summary
        summary.hosts = driver.hostNotes
        summary.seconds = monotonicSeconds() - startedAt
        summary.shard = feed.shardCount
        if let sums = settings.sums {
            summary.sumsFile = sums.shortName
            summary.notInSums = sums.unnamedCount
        }
        if let interrupted = cancellation.exitStatus {
            summary.exitCode = interrupted
            // A closed standard output ends the run without a word, as it ends `cat`.
            if cancellation.reason != .outputClosed {
                renderer.handle(.interrupted(exitStatus: interrupted, kept: tally.kept))
            }
        }
        renderer.handle(.summary(summary))
        return summary
    }

    /// The record of an item the run's stop kept from starting.
    private func notStarted(_ item: DownloadItem) -> ItemRecord {
        var record = ItemRecord(info: item.plannedInfo)
        record.stoppedEarly =
            switch cancellation.reason {
            case .outputClosed:
                ItemRecord.EarlyStop(cause: .interrupted, message: "not started: standard output was closed")
            case .signal:
                ItemRecord.EarlyStop(cause: .interrupted, message: "not started: the run was stopped by a signal")
            case .failFast, nil:
                ItemRecord.EarlyStop(cause: .notStarted, message: "not started: an earlier item failed (--fail-fast)")
            }
        return record
    }

    /// The record of an item found unusable before it could start (a bad list line, a bad resume
    /// file, a duplicate refused as it arrived).
    private static func record(of failure: ItemFailure) -> ItemRecord {
        var record = ItemRecord(info: ItemInfo(id: -1, url: failure.url ?? "", path: failure.item))
        record.outcome = .failed(failure)
        return record
    }
}

/// Running totals of a run: counts only, so a run of any length costs the same memory. Each
/// record goes on to the report.
private struct Tally {
    private(set) var summary = RunSummary()
    /// What the interrupted items left for the next run: the most any of them left, so that a
    /// batch says "continue" when one item continues, whatever the others left.
    private(set) var kept = KeptForNextRun.nothing
    let report: RunReport?
    let cancellation: Cancellation

    init(report: RunReport?, cancellation: Cancellation) {
        self.report = report
        self.cancellation = cancellation
    }

    /// `unusableAfter`: for an item found unusable (it has no id), the id of the item before it
    /// in list order, so that the summary lists failures in list order.
    mutating func add(_ record: ItemRecord, unusableAfter previousID: Int? = nil) {
        // What arrived counts, also for an item stopped by Ctrl-C (its bytes wait for the next
        // run) or one that failed after part of its body.
        summary.bytes += record.transferred
        switch record.outcome {
        case .done:
            summary.downloaded += 1
        case .skipped:
            summary.skipped += 1
        case .failed(let failure):
            if failure.failure.kind == .destinationBusy {
                summary.busy += 1
            } else {
                summary.failed += 1
                summary.noteFailure("\(failure)", order: previousID.map { 2 * $0 + 1 } ?? 2 * record.info.id)
            }
            summary.exitCode = ExitStatus.combined([summary.exitCode, failure.exitCode])
        case .stopped(let itemKept):
            kept = max(kept, itemKept)
            // One --fail-fast kept from starting is failed in the report, so here too.
            if record.wasInterrupted { summary.interrupted += 1 } else { summary.failed += 1 }
        }
        // An item the run stopped carries the run's exit: a signal's, known once it came; for
        // --fail-fast, the failures' so far (the one that stopped the run among them).
        report?.add(record, runExit: cancellation.exitStatus ?? summary.exitCode)
    }
}
