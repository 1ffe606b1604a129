import AFGetProgress
import AFGetSession
import AFGetSupport
import AFGetKit
import ArgumentParser

/// The option groups every downloading command (`download`, `resume`) shares.
struct DownloadingOptions: ParsableArguments {
    @OptionGroup(title: "Run") var run: RunOptions
    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Authentication and cookies") var auth: AuthOptions
    @OptionGroup(title: "TLS") var tls: TLSOptions
    @OptionGroup(title: "FTP and SSH") var remoteFiles: RemoteFileOptions
    @OptionGroup(title: "S3") var s3: S3Options
    @OptionGroup(title: "Resume") var resume: ResumeOptions
    @OptionGroup(title: "Retry") var retry: RetryOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions
    @OptionGroup(title: "Config file") var config: ConfigFileOptions
}

/// `--checksums` as given: the sums file (or its URL), `-d` (items are matched by their path
/// below it) and `--require-checksums`.
struct SumsFileChoice {
    let argument: String
    let directory: String?
    let requiresChecksums: Bool
}

/// What a run downloads: a list's items (the command line's, `-i`'s, a resume's), or what a
/// recursive download finds.
enum RunItems {
    /// A list's items, or an S3 prefix's listing as it is read.
    case list(ItemFeed, s3Listing: Bool = false)
    case crawl(Crawl)

    /// The command line's items, which `--report` must not be written over.
    var leadingItems: [DownloadItem] {
        if case .list(let feed, _) = self { feed.leadingItems } else { [] }
    }

    var isS3Listing: Bool {
        if case .list(_, true) = self { true } else { false }
    }

    /// A run of one known item says no summary; a crawl's size is not known.
    var knownCount: Int? {
        if case .list(let feed, _) = self { feed.knownCount } else { nil }
    }
}

/// Runs download items with the options every downloading command shares, writes the report,
/// and exits with the run's status. A caller that passes `cancellation` watches for signals
/// itself (it fetched documents before the run, under the same stop).
func runDownloads(
    _ items: RunItems, alreadyFailed: [ItemFailure] = [], inputList: String? = nil, options: DownloadingOptions,
    onExists: OnExistsPolicy, namesFromServer: Bool = false, stdoutCarriesData: Bool, sums: SumsFileChoice? = nil,
    cancellation: Cancellation? = nil
) async throws {
    let (run, connection, resume, progress) = (options.run, options.connection, options.resume, options.progress)
    let headers = try reportingFailures { try connection.headers() }
    if let report = run.report { try RunReport.checkDestination(report, list: inputList, items: items.leadingItems) }
    var settings = DownloadSettings(
        onExists: onExists, headers: headers,
        transfer: try connection.transferOptions(
            auth: options.auth, tls: options.tls, retry: options.retry, remoteFiles: options.remoteFiles.settings()),
        retry: options.retry.policy, discardsResumeData: resume.restart, refusesRestart: resume.noRestart,
        concurrency: run.jobs, failsFast: run.failFast, reportsSHA256: run.report != nil || progress.style == .json,
        namesFromServer: namesFromServer,
        // A file's segments are connections to its host too: no more of them than --max-per-host.
        split: min(run.split, run.maxPerHost ?? run.split), minimumSplitSize: run.minSplitSize.bytes)
    settings.continuesExistingFiles = resume.continueDownloads
    settings.s3 = options.s3.access()
    if connection.verbose, case .success(let access) = settings.s3,
        items.isS3Listing || items.leadingItems.contains(where: { $0.url.lowercased().hasPrefix("s3://") })
    {
        OutputStream.standardError.writeLine("* S3: \(access.summary)")
    }
    settings.hosts = run.hostRules
    if case .crawl = items { settings.keepsFinalResponse = true }
    let renderer = SharedRenderer(
        progress.style.makeRenderer(
            stdoutCarriesData: stdoutCarriesData, showsSummary: (items.knownCount ?? 2) + alreadyFailed.count > 1))

    // Every connection a run holds at once is kept for the next item, not only four per
    // transfer running when one ends.
    let manager = TaskManager(
        cancellation: cancellation ?? Cancellation(), idleConnectionsKept: run.jobs * run.split,
        connectionsPerHost: run.maxPerHost, totalRateLimit: connection.totalRateLimit)
    // Ctrl-C and SIGTERM stop the run; the runner then checkpoints and reports.
    let interrupts = cancellation == nil ? InterruptMonitor(stopping: manager.cancellation) : nil
    defer { withExtendedLifetime(interrupts) {} }
    if let sums {
        // Read (or fetched) whole and checked before any item: a bad line stops the run (exit 2).
        let file: SumsFile?
        do {
            file = try await SumsSource.load(
                sums.argument, manager: manager, options: settings.transfer, retry: settings.retry, headers: headers)
        } catch {
            manager.invalidate()
            throw error
        }
        guard let file else {
            manager.invalidate()
            OutputStream.standardError.writeLine("afget: interrupted while fetching \(removingPassword(from: sums.argument))")
            throw ExitCode(manager.cancellation.exitStatus ?? FailureClass.internalError.exitCode)
        }
        settings.sums = SumsCheck(file, directory: sums.directory, requiresChecksums: sums.requiresChecksums)
    }
    let runner = try DownloadRunner(manager: manager, renderer: renderer, settings: settings)
    let report = try run.report.map { path throws(TransferFailure) in try RunReport(path: path) }
    let summary =
        switch items {
        case .list(let feed, _): await runner.run(feed, alreadyFailed: alreadyFailed, report: report)
        case .crawl(let crawl): await runner.run(crawl, report: report)
        }
    renderer.finish()
    manager.invalidate()
    do throws(TransferFailure) {
        try report?.finish(summary)
    } catch {
        OutputStream.standardError.writeLine("afget: \(error.message)")
        throw ExitCode(summary.exitCode == 0 ? FailureClass.localFile.exitCode : summary.exitCode)
    }
    if summary.exitCode != 0 {
        throw ExitCode(summary.exitCode)
    }
}
