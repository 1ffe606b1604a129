import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import Glibc

/// `afget upload FILE... URL` once parsed: each file sent in turn through the exchange runner,
/// the server's response bodies written to standard output whatever their status, and a
/// summary whose exit status follows DESIGN.md §3.
public struct UploadRunner: Sendable {
    private let exchanges: ExchangeRunner
    private let renderer: SharedRenderer
    private let cancellation: Cancellation
    /// Whether a 401 means the credentials were refused rather than missing.
    private let sendsCredentials: Bool

    public init(manager: TaskManager, renderer: SharedRenderer, options: TransferOptions, retry: RetryPolicy) {
        exchanges = ExchangeRunner(manager: manager, renderer: renderer, options: options, retry: retry)
        self.renderer = renderer
        cancellation = manager.cancellation
        sendsCredentials = options.sendsCredentials
    }

    /// Uploads `files` to `url` as `plan` says, one after another, until the run stops.
    public func run(_ files: [String], to url: String, plan: UploadPlan) async -> RunSummary {
        var summary = RunSummary()
        summary.isUpload = true
        var exitCodes: [Int32] = []
        let startedAt = monotonicSeconds()
        // The total line counts files, "[1/3]", as a batch of downloads counts items.
        renderer.handle(.expecting(items: files.count))
        for (index, file) in files.enumerated() where !cancellation.isRequested {
            switch await upload(file, index: index, to: url, plan: plan) {
            case .done(let sent):
                summary.downloaded += 1
                summary.bytes += sent
            case .failed(let failure):
                exitCodes.append(failure.exitCode)
                summary.failed += 1
            case .skipped, .stopped:
                break
            }
        }
        summary.seconds = monotonicSeconds() - startedAt
        summary.exitCode = cancellation.exitStatus ?? ExitStatus.combined(exitCodes)
        if cancellation.isRequested && cancellation.reason != .outputClosed {
            OutputStream.standardError.writeLine("afget: interrupted")
        }
        renderer.handle(.summary(summary))
        return summary
    }

    /// Sends one file; the response body goes to stdout whatever its status, once the file's
    /// progress is finished. Messages and events
    /// name the URL the file went to (with its name appended to a URL ending in /).
    private func upload(_ file: String, index: Int, to url: String, plan: UploadPlan) async -> ItemOutcome {
        let request: HTTPRequest
        do {
            request = try plan.request(for: file, to: url)
        } catch {
            renderer.handle(.failed(ItemInfo(id: index, url: removingPassword(from: url), path: file), error))
            return .failed(error)
        }
        // "-" names standard output wherever afget writes; here it is what is read.
        let shownFile = file == UploadPlan.standardInputName ? "(stdin)" : file
        let info = ItemInfo(id: index, url: removingPassword(from: request.url.absoluteString), path: shownFile)
        let result = await exchanges.run(request, info: info)
        if result.stopped != nil { return .stopped(.nothing) }
        func failed(_ failure: TransferFailure) -> ItemOutcome {
            let failure = ItemFailure(item: shownFile, failure)
            renderer.handle(.failed(info, failure))
            return .failed(failure)
        }
        guard let response = result.response else {
            return failed(result.failure ?? TransferFailure(.stop(.noResponse)))
        }
        // On a terminal that also shows the bars, the body waits until this file's bar is done.
        if let code = renderer.writeOutput(response.body, of: info, to: .standardOutput) {
            let failure = fileFailure(.write, "standard output", errno: code)
            guard failure.isClosedPipe else { return failed(failure) }
            // Whoever read the responses is gone: no further file is sent, without a word.
            cancellation.stop(.outputClosed)
            return .stopped(.nothing)
        }
        if let judged = result.failure ?? ResponseSerializer().validate(response.head, sentCredentials: sendsCredentials) {
            return failed(judged.noting(.at(info.url), transient: false))
        }
        let sent = response.progress.sent
        renderer.handle(.done(info, bytes: sent, transferred: sent, seconds: result.seconds, sha256: nil))
        return .done(transferred: sent)
    }
}
