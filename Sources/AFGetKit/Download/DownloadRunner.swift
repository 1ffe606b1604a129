/// Runs download items through the task manager, up to `concurrency` at a time, and adds up
/// the results. Each item is a job in a child task; the renderer is shared between them.
public final class DownloadRunner: Sendable {
    private let manager: TaskManager
    private let router: TaskEventRouter
    private let renderer: SharedRenderer
    private let settings: DownloadSettings
    private let interrupts: InterruptStatus?

    public init(manager: TaskManager, renderer: SharedRenderer, settings: DownloadSettings,
                interrupts: InterruptStatus? = nil) {
        self.manager = manager
        self.renderer = renderer
        self.settings = settings
        self.interrupts = interrupts
        router = TaskEventRouter(manager)
    }

    /// Downloads every item and reports the totals; the summary's exit code follows DESIGN.md §3
    /// (an interruption overrides every other code). `alreadyFailed` are items found unusable
    /// before any transfer (a bad list line, a bad resume file); they are reported and counted.
    public func run(_ items: [DownloadItem], alreadyFailed: [ItemFailure] = []) async -> RunResult {
        let startedAt = monotonicSeconds()
        var tally = Tally()
        for failure in alreadyFailed {
            let info = ItemInfo(id: -1, url: "", path: failure.item)
            renderer.handle(.failed(info, failure))
            var record = ItemRecord(info: info)
            record.failure = failure
            tally.add(.failed(failure), record)
        }
        await withTaskGroup(of: (ItemOutcome, ItemRecord).self) { group in
            var pending = items.makeIterator()
            var stopping = false
            func startNext() {
                guard !stopping, interrupts?.wasInterrupted != true, let item = pending.next() else { return }
                group.addTask { [self] in await download(item) }
            }
            for _ in 0..<settings.concurrency { startNext() }
            for await (outcome, record) in group {
                tally.add(outcome, record)
                if case .failed = outcome, settings.failsFast { stopping = true }
                startNext()
            }
        }
        var summary = tally.summary
        summary.seconds = monotonicSeconds() - startedAt
        if let interrupted = interrupts?.exitStatus {
            summary.exitCode = interrupted
            renderer.handle(.interrupted(exitStatus: interrupted))
        }
        renderer.handle(.summary(summary))
        return RunResult(summary: summary, records: tally.records.sorted { $0.info.id < $1.info.id })
    }

    private func download(_ item: DownloadItem) async -> (ItemOutcome, ItemRecord) {
        switch PreparedDownload.prepare(item, settings: settings) {
        case .skip(let info, let reason):
            renderer.handle(.queued(info))
            renderer.handle(.skipped(info, reason: reason))
            var record = ItemRecord(info: info)
            record.outcome = .skipped
            return (.skipped, record)
        case .fail(let info, let failure):
            renderer.handle(.queued(info))
            renderer.handle(.failed(info, failure))
            var record = ItemRecord(info: info)
            record.failure = failure
            return (.failed(failure), record)
        case .ready(let download):
            renderer.handle(.queued(download.info))
            let job = DownloadJob(download, manager: manager, router: router, renderer: renderer,
                                  settings: settings, interrupts: interrupts)
            let outcome = await job.run()
            return (outcome, job.record)
        }
    }
}

/// The totals of a run and what became of each item.
public struct RunResult: Sendable {
    public let summary: RunSummary
    public let records: [ItemRecord]
}

/// How one item ended.
enum ItemOutcome: Sendable {
    case downloaded(Int64)
    case skipped
    case failed(ItemFailure)
    case interrupted
}

/// Running totals of a run.
private struct Tally {
    var summary = RunSummary()
    var records: [ItemRecord] = []
    private var exitCodes: [Int32] = []

    mutating func add(_ outcome: ItemOutcome, _ record: ItemRecord) {
        records.append(record)
        switch outcome {
        case .downloaded(let bytes):
            summary.downloaded += 1
            summary.bytes += bytes
        case .skipped:
            summary.skipped += 1
        case .failed(let failure):
            summary.failed += 1
            exitCodes.append(failure.exitCode)
        case .interrupted:
            break
        }
        summary.exitCode = ExitStatus.combined(exitCodes)
    }
}
