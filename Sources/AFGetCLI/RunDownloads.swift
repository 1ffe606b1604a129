import AFGetKit
import ArgumentParser

/// Runs download items with the options every downloading command shares, writes the report,
/// and exits with the run's status.
func runDownloads(
    _ items: [DownloadItem], alreadyFailed: [ItemFailure] = [], connection: ConnectionOptions, auth: AuthOptions, tls: TLSOptions,
    resume: ResumeOptions, retry: RetryOptions, run: RunOptions, onExists: OnExistsPolicy, namesFromServer: Bool = false, progress: ProgressOptions, stdoutCarriesData: Bool
) async throws {
    let headers: [HTTPHeader]
    do {
        headers = try connection.headers()
    } catch {
        throw UsageFailure(message: error.message)
    }
    let settings = DownloadSettings(
        onExists: onExists, headers: headers, transfer: try connection.transferOptions(auth: auth, tls: tls), retry: retry.policy,
        discardsResumeData: resume.restart, refusesRestart: resume.noRestart, concurrency: run.jobs,
        failsFast: run.failFast, reportsSHA256: run.report != nil || progress.style == .json,
        namesFromServer: namesFromServer, split: run.split, minimumSplitSize: run.minSplitSize.bytes)
    let renderer = SharedRenderer(progress.style.makeRenderer(
        stdoutCarriesData: stdoutCarriesData, showsSummary: items.count + alreadyFailed.count > 1))

    let manager = TaskManager()
    // Ctrl-C and SIGTERM cancel the transfers; the runner then checkpoints and reports.
    let interrupts = InterruptMonitor { manager.cancelAll() }
    let result = await DownloadRunner(manager: manager, renderer: renderer, settings: settings, interrupts: interrupts.status)
        .run(items, alreadyFailed: alreadyFailed)
    renderer.finish()
    manager.invalidate()
    if let report = run.report {
        do {
            try RunReport.write(result, to: report)
        } catch {
            OutputStream.standardError.writeLine("afget: \(error.message)")
            throw ExitCode(result.summary.exitCode == 0 ? FailureClass.localFile.exitCode : result.summary.exitCode)
        }
    }
    if result.summary.exitCode != 0 {
        throw ExitCode(result.summary.exitCode)
    }
}
