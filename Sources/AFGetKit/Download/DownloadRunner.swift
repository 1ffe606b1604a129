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
    public func run(_ items: [DownloadItem], alreadyFailed: [ItemFailure] = []) async -> RunSummary {
        let startedAt = monotonicSeconds()
        var tally = Tally()
        for failure in alreadyFailed {
            renderer.handle(.failed(ItemInfo(id: -1, url: "", path: failure.item), failure))
            tally.add(.failed(failure))
        }
        await withTaskGroup(of: ItemOutcome.self) { group in
            var pending = items.makeIterator()
            var stopping = false
            func startNext() {
                guard !stopping, interrupts?.wasInterrupted != true, let item = pending.next() else { return }
                group.addTask { [self] in await download(item) }
            }
            for _ in 0..<settings.concurrency { startNext() }
            for await outcome in group {
                tally.add(outcome)
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
        return summary
    }

    private func download(_ item: DownloadItem) async -> ItemOutcome {
        switch PreparedDownload.prepare(item, settings: settings) {
        case .skip(let info, let reason):
            renderer.handle(.queued(info))
            renderer.handle(.skipped(info, reason: reason))
            return .skipped
        case .fail(let info, let failure):
            renderer.handle(.queued(info))
            renderer.handle(.failed(info, failure))
            return .failed(failure)
        case .ready(let download):
            renderer.handle(.queued(download.info))
            let job = DownloadJob(download, manager: manager, router: router, renderer: renderer,
                                  settings: settings, interrupts: interrupts)
            return await job.run()
        }
    }
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
    private var exitCodes: [Int32] = []

    mutating func add(_ outcome: ItemOutcome) {
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
