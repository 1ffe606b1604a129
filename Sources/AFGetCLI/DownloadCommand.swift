import AFGetKit
import ArgumentParser

/// `afget [download] URL...`: builds the plan from the arguments and hands it to the runner.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download each URL (the default command)."
    )

    @Argument(help: ArgumentHelp("http or https URLs to download.", valueName: "url"))
    var urls: [String] = []

    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Resume and retry") var resume: ResumeOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("no URL given") }
        try output.validate(urlCount: urls.count)
    }

    func run() async throws {
        let target = output.target
        let items = urls.enumerated().map { DownloadItem(index: $0.offset, url: $0.element, output: target) }
        try await runDownloads(items, connection: connection, resume: resume, onExists: output.onExists,
                               progress: progress, stdoutCarriesData: target == .standardOutput)
    }
}

/// Runs download items with the options every downloading command shares, and exits with the
/// run's status.
func runDownloads(
    _ items: [DownloadItem], alreadyFailed: [ItemFailure] = [], connection: ConnectionOptions, resume: ResumeOptions, onExists: OnExistsPolicy,
    progress: ProgressOptions, stdoutCarriesData: Bool
) async throws {
    let headers: [HTTPHeader]
    do {
        headers = try connection.headers()
    } catch {
        throw UsageFailure(message: error.message)
    }
    let settings = DownloadSettings(
        onExists: onExists, headers: headers, transfer: connection.transferOptions, retry: resume.retryPolicy,
        discardsResumeData: resume.restart, refusesRestart: resume.noRestart)
    let renderer = SharedRenderer(progress.style.makeRenderer(
        stdoutCarriesData: stdoutCarriesData, showsSummary: items.count + alreadyFailed.count > 1))

    let manager = TaskManager()
    // Ctrl-C and SIGTERM cancel the transfers; the runner then checkpoints and reports.
    let interrupts = InterruptMonitor { manager.cancelAll() }
    let summary = await DownloadRunner(manager: manager, renderer: renderer, settings: settings, interrupts: interrupts.status)
        .run(items, alreadyFailed: alreadyFailed)
    renderer.finish()
    manager.invalidate()
    if summary.exitCode != 0 {
        throw ExitCode(summary.exitCode)
    }
}
