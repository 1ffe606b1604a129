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
    @OptionGroup(title: "Batch") var batch: BatchOptions
    @OptionGroup(title: "Run") var runOptions: RunOptions
    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Resume and retry") var resume: ResumeOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        guard !urls.isEmpty || batch.inputFile != nil else { throw ValidationError("no URL given (and no -i list)") }
        try output.validate(urlCount: urls.count + (batch.inputFile == nil ? 0 : 2))
        if batch.checksum != nil && urls.count != 1 {
            throw ValidationError("--checksum takes a single URL; give checksum= lines in a list for several")
        }
    }

    func run() async throws {
        var list: InputList?
        do {
            list = try batch.inputFile.map { path throws(ItemFailure) in try InputList.load(path) }
        } catch {
            throw UsageFailure(message: "\(error)")
        }
        let checksum: Checksum?
        do {
            checksum = try batch.parsedChecksum()
        } catch {
            throw UsageFailure(message: error.message)
        }
        let items = BatchPlan.items(urls: urls, output: output.target, list: list?.entries ?? [],
                                    directory: output.directory, checksum: checksum)
        let plan = BatchPlan.check(items)
        if let conflict = plan.conflict {
            throw UsageFailure(message: "\(conflict)")
        }
        plan.notices.forEach { OutputStream.standardError.writeLine($0) }
        try await runDownloads(
            plan.items, alreadyFailed: list?.problems ?? [], connection: connection, resume: resume, run: runOptions,
            onExists: output.onExists, progress: progress, stdoutCarriesData: output.target == .standardOutput)
    }
}

/// Runs download items with the options every downloading command shares, writes the report,
/// and exits with the run's status.
func runDownloads(
    _ items: [DownloadItem], alreadyFailed: [ItemFailure] = [], connection: ConnectionOptions, resume: ResumeOptions,
    run: RunOptions, onExists: OnExistsPolicy, progress: ProgressOptions, stdoutCarriesData: Bool
) async throws {
    let headers: [HTTPHeader]
    do {
        headers = try connection.headers()
    } catch {
        throw UsageFailure(message: error.message)
    }
    let settings = DownloadSettings(
        onExists: onExists, headers: headers, transfer: connection.transferOptions, retry: resume.retryPolicy,
        discardsResumeData: resume.restart, refusesRestart: resume.noRestart, concurrency: run.jobs,
        failsFast: run.failFast, reportsSHA256: run.report != nil || progress.style == .json)
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
