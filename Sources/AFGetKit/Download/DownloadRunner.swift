/// Runs download items through the task manager, one after another, and adds up the results.
public final class DownloadRunner {
    private let manager: TaskManager
    private let events: TaskEventSource
    private let renderer: ProgressRenderer
    private let settings: DownloadSettings
    private let interrupts: InterruptMonitor?

    public init(manager: TaskManager, renderer: ProgressRenderer, settings: DownloadSettings,
                interrupts: InterruptMonitor? = nil) {
        self.manager = manager
        self.renderer = renderer
        self.settings = settings
        self.interrupts = interrupts
        events = TaskEventSource(manager)
    }

    /// Downloads every item and reports the totals; the summary's exit code follows DESIGN.md §3
    /// (an interruption overrides every other code).
    /// `alreadyFailed` are items found unusable before any transfer (a bad resume file);
    /// they are reported and counted like the rest.
    public func run(_ items: [DownloadItem], alreadyFailed: [ItemFailure] = []) async -> RunSummary {
        let startedAt = monotonicSeconds()
        var summary = RunSummary()
        var exitCodes: [Int32] = []
        for failure in alreadyFailed {
            renderer.handle(.failed(ItemInfo(id: -1, url: "", path: failure.item), failure))
            summary.failed += 1
            exitCodes.append(failure.exitCode)
        }
        for item in items {
            if interrupts?.wasInterrupted == true { break }
            switch PreparedDownload.prepare(item, settings: settings) {
            case .skip(let info, let reason):
                renderer.handle(.queued(info))
                renderer.handle(.skipped(info, reason: reason))
                summary.skipped += 1
            case .fail(let info, let failure):
                renderer.handle(.queued(info))
                renderer.handle(.failed(info, failure))
                summary.failed += 1
                exitCodes.append(failure.exitCode)
            case .ready(let download):
                renderer.handle(.queued(download.info))
                let job = DownloadJob(download, manager: manager, events: events, renderer: renderer,
                                      settings: settings, interrupts: interrupts)
                switch await job.run() {
                case .downloaded(let bytes):
                    summary.downloaded += 1
                    summary.bytes += bytes
                case .failed(let failure):
                    summary.failed += 1
                    exitCodes.append(failure.exitCode)
                case .interrupted:
                    break
                }
            }
        }
        summary.seconds = monotonicSeconds() - startedAt
        if let interrupted = interrupts?.exitStatus {
            summary.exitCode = interrupted
            renderer.handle(.interrupted(exitStatus: interrupted))
        } else {
            summary.exitCode = ExitStatus.combined(exitCodes)
        }
        renderer.handle(.summary(summary))
        return summary
    }
}
