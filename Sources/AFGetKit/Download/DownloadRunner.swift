/// Runs download items through the task manager, one after another, turning task events
/// into item events for a renderer and finished part files into destinations.
public final class DownloadRunner {
    private let manager: TaskManager
    private let renderer: ProgressRenderer
    private let settings: DownloadSettings
    private var events: AsyncStream<TaskEvent>.Iterator

    public init(manager: TaskManager, renderer: ProgressRenderer, settings: DownloadSettings) {
        self.manager = manager
        self.renderer = renderer
        self.settings = settings
        events = manager.events.makeAsyncIterator()
    }

    /// Downloads every item and reports the totals; the summary's exit code follows DESIGN.md §3.
    public func run(_ items: [DownloadItem]) async -> RunSummary {
        let startedAt = monotonicSeconds()
        var summary = RunSummary()
        var exitCodes: [Int32] = []
        for item in items {
            let outcome: Outcome
            switch PreparedDownload.prepare(item, settings: settings) {
            case .skip(let info, let reason):
                renderer.handle(.queued(info))
                renderer.handle(.skipped(info, reason: reason))
                outcome = .skipped
            case .fail(let info, let failure):
                renderer.handle(.queued(info))
                renderer.handle(.failed(info, failure))
                outcome = .failed(failure)
            case .ready(let download):
                renderer.handle(.queued(download.info))
                outcome = await transfer(download)
            }
            switch outcome {
            case .downloaded(let bytes):
                summary.downloaded += 1
                summary.bytes += bytes
            case .skipped:
                summary.skipped += 1
            case .failed(let failure):
                summary.failed += 1
                exitCodes.append(failure.exitCode)
            }
        }
        summary.seconds = monotonicSeconds() - startedAt
        summary.exitCode = ExitStatus.combined(exitCodes)
        renderer.handle(.summary(summary))
        return summary
    }

    private enum Outcome {
        case downloaded(Int64)
        case skipped
        case failed(ItemFailure)
    }

    private func transfer(_ download: PreparedDownload) async -> Outcome {
        let info = download.info
        let id = manager.downloadTask(with: download.request, to: download.sink, options: settings.transfer)
        manager.resume(id)
        let startedAt = monotonicSeconds()
        var speed = SpeedEstimator()
        var bodyStarted = false
        defer { download.closeStream() }

        while let event = await events.next() {
            guard event.taskID == id else { continue }
            switch event {
            case .started(_, let head):
                bodyStarted = head.isSuccess
                if bodyStarted { renderer.handle(.started(info, total: head.contentLength)) }
            case .progress(_, let progress):
                guard bodyStarted else { continue }
                speed.add(bytes: progress.received, at: monotonicSeconds())
                renderer.handle(.progress(info, bytes: progress.received, total: progress.expected, speed: speed.bytesPerSecond))
            case .verbose(_, let line):
                renderer.handle(.notice(line))
            case .redirected(_, _, let target):
                if settings.transfer.verbose { renderer.handle(.notice("* following redirect to \(target)")) }
            case .suspended, .resumed:
                break
            case .completed(_, let response):
                return finish(download, response, seconds: monotonicSeconds() - startedAt)
            case .failed(_, let failure, _):
                return fail(download, failure)
            case .canceled:
                return fail(download, TransferFailure(.internalError, "canceled"))
            }
        }
        return fail(download, TransferFailure(.internalError, "the task manager stopped early"))
    }

    private func finish(_ download: PreparedDownload, _ response: TaskResponse, seconds: Double) -> Outcome {
        let head = response.head
        guard head.isSuccess else {
            let statusLine = "HTTP \(head.status)\(head.reason.isEmpty ? "" : " " + head.reason)"
            if (400..<600).contains(head.status) {
                return fail(download, TransferFailure(.httpStatus, statusLine))
            }
            if head.isRedirect, let location = head.value(of: "Location") {
                return fail(download, TransferFailure(.protocolViolation,
                    "\(statusLine): redirect to \(location) not followed (--no-follow)"))
            }
            return fail(download, TransferFailure(.protocolViolation, "unexpected final response \(statusLine)"))
        }
        do {
            try download.part?.commit(lastModified: response.lastModified)
        } catch {
            renderer.handle(.failed(download.info, ItemFailure(item: download.info.path, error)))
            return .failed(ItemFailure(item: download.info.path, error))
        }
        let bytes = response.progress.received
        renderer.handle(.done(download.info, bytes: bytes, seconds: seconds))
        return .downloaded(bytes)
    }

    private func fail(_ download: PreparedDownload, _ failure: TransferFailure) -> Outcome {
        download.part?.abandon()
        let itemFailure = ItemFailure(item: download.info.url, failure)
        renderer.handle(.failed(download.info, itemFailure))
        return .failed(itemFailure)
    }
}
