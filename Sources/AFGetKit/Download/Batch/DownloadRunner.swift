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
        await run(source: feed, alreadyFailed: alreadyFailed, report: report)
    }

    /// Downloads what a recursive download finds, as `run(_:)` does a list's items.
    public func run(_ crawl: Crawl, report: RunReport? = nil) async -> RunSummary {
        await run(source: crawl, alreadyFailed: [], report: report)
    }

    private func run(source feed: any ItemSource, alreadyFailed: [ItemFailure], report: RunReport?) async -> RunSummary {
        let startedAt = monotonicSeconds()
        var tally = Tally(report: report, cancellation: cancellation)
        /// The id of the last item taken from the feed: an unusable one comes after it in list order.
        var lastItemID = -1
        /// An item found unusable before it could start: told, counted and reported.
        func unusable(_ failure: ItemFailure) {
            let record = ItemRecord(unusable: failure)
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
        defer { feed.close() }
        // The items run on the curl thread, with the tally; both come back as the batch ends.
        var environment = environment
        environment.redirectJudge = feed.redirectJudge
        let ended = await environment.manager.run { [environment, admission, tally] thread, finish in
            DownloadDriver(
                environment: environment, admission: admission, source: feed, tally: tally, thread: thread,
                finish: finish)
        }
        guard var ended else { preconditionFailure("the task manager was invalidated before its batch ran") }
        lastItemID = ended.lastItemID
        // Items a signal or --fail-fast kept from starting are in the report too: those set
        // aside for their hosts, then the rest of the list.
        for item in ended.setAside { ended.tally.add(notStarted(item)) }
        var block = ended.untaken
        notStarted: while true {
            for next in block {
                switch next {
                case .item(let item):
                    lastItemID = item.plannedInfo.id
                    ended.tally.add(notStarted(item))
                case .unusable(let failure):
                    ended.tally.add(ItemRecord(unusable: failure), unusableAfter: lastItemID)
                case .notice, .notYet:
                    continue
                case .end:
                    break notStarted
                }
            }
            block = feed.nextBlockAfterStop()
        }
        var summary = ended.tally.summary
        summary.hosts = ended.hostNotes
        summary.seconds = monotonicSeconds() - startedAt
        feed.describe(in: &summary)
        if let sums = settings.sums {
            summary.sumsFile = sums.shortName
            summary.notInSums = sums.unnamedCount
        }
        if let interrupted = cancellation.exitStatus {
            summary.exitCode = interrupted
            // A closed standard output ends the run without a word, as it ends `cat`.
            if cancellation.reason != .outputClosed {
                renderer.handle(.interrupted(exitStatus: interrupted, kept: ended.tally.kept))
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
}
