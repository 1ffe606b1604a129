import AFGetRequest
import AFGetSession
import AFGetSupport
import AFGetKit
import ArgumentParser
import Glibc

/// `afget [download] URL...`: builds the plan from the arguments and hands it to the runner.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download each URL (the default command)."
    )

    @Argument(
        help: ArgumentHelp(
            "URLs to download: http, https, ftp, ftps, sftp, scp or s3 (s3://BUCKET/KEY; a PREFIX/ is every object below it); one without a scheme is http (example.org/file).",
            valueName: "url"))
    var urls: [String] = []

    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Batch") var batch: BatchOptions
    @OptionGroup(title: "Recursive") var crawl: CrawlOptions
    @OptionGroup var options: DownloadingOptions
    @OptionGroup(title: "Accepted from curl and wget") var habitual: HabitualFlags

    func validate() throws {
        if !batch.mirrors.isEmpty && urls.count != 1 && !isWgetMirror { throw Self.mirrorNeedsOneURL }
        if crawl.asksForCrawl || isWgetMirror {
            if batch.inputFile != nil || batch.metalink != nil {
                throw ValidationError("a recursive download starts from the URLs on the command line, not from -i or --metalink")
            }
            if output.output != nil {
                throw ValidationError("-o/--output names one file; a recursive download lays its files out under -d")
            }
        }
        guard !urls.isEmpty || batch.inputFile != nil || batch.metalink != nil || isWgetMirror else {
            throw ValidationError("no URL given (and no -i list)")
        }
        // `afget -q resume` reads "resume" as a URL of the default command.
        if let command = urls.first(where: AFGetCommand.commandNames.contains) {
            throw ValidationError("\(command) is a command, not a URL: put options after it (afget \(command) -q ...)")
        }
        if !s3Prefixes.isEmpty {
            guard s3Prefixes.count == urls.count, batch.inputFile == nil, batch.metalink == nil, output.output == nil else {
                throw ValidationError(
                    "an S3 prefix (s3://BUCKET/PREFIX/, or s3:// with -r) is listed alone: give other URLs, -i, "
                        + "--metalink and -o in another run")
            }
        } else if !options.s3.include.isEmpty || !options.s3.exclude.isEmpty {
            throw ValidationError("--include and --exclude choose the keys of an S3 prefix: afget s3://BUCKET/PREFIX/")
        }
        try output.validate(urlCount: urls.count, hasList: batch.inputFile != nil || batch.metalink != nil)
        try habitual.validate(onExists: output.onExists)
        if batch.checksum != nil && urls.count != 1 {
            throw ValidationError("--checksum takes a single URL; give checksum= lines in a list for several")
        }
        for mirror in batch.mirrors {
            do {
                _ = try RequestSerializer.parseURL(mirror, for: .download)
            } catch {
                throw ValidationError("--mirror \(error)")
            }
        }
    }

    private static let mirrorNeedsOneURL = ValidationError(
        "--mirror URL adds a source to the one URL given (a list takes a file's sources on one line, "
            + "separated by tabs); for wget's --mirror of a site give its URL alone: afget --mirror URL")

    /// wget's `--mirror URL`: afget's `--mirror` adds a source to the one URL given, so given
    /// with no URL (and no list) it can only be wget's, a whole site.
    private var isWgetMirror: Bool {
        !batch.mirrors.isEmpty && urls.isEmpty && batch.inputFile == nil && batch.metalink == nil
    }

    /// The recursive download the options ask for: its settings, start URLs and `--on-exists`
    /// (wget's `--mirror` is `-r -l inf --on-exists update`); nil for none.
    func crawlRequest() throws -> CrawlRequest? {
        guard let settings = try crawl.settings(directory: output.directory, mirror: isWgetMirror) else { return nil }
        let starts = isWgetMirror ? batch.mirrors : urls.map(TypedURL.completed)
        return CrawlRequest(settings: settings, starts: starts, onExists: isWgetMirror ? .update : output.onExists)
    }

    /// The S3 prefixes the command lists: `s3://` URLs ending in `/` (a bucket alone too), or
    /// every `s3://` URL given with `-r`.
    private var s3Prefixes: [String] {
        urls.filter { url in
            guard url.lowercased().hasPrefix("s3://") else { return false }
            return crawl.recursive || url.hasSuffix("/") || !url.dropFirst(5).contains("/")
        }
    }

    func run() async throws {
        if !s3Prefixes.isEmpty { return try await runS3Listing() }
        if let request = try crawlRequest() {
            return try await runCrawl(request)
        }
        let checksum: Checksum?
        do {
            checksum = try batch.parsedChecksum()
        } catch {
            throw UsageFailure(message: error.message)
        }
        // One stop for the whole command, watched from the start: Ctrl-C while a Metalink
        // document is fetched ends the run as it ends a transfer.
        let cancellation = Cancellation()
        let interrupts = InterruptMonitor(stopping: cancellation)
        defer { withExtendedLifetime(interrupts) {} }
        let (transfer, headers) = try documentSettings()
        let documents = ListDocuments(
            cancellation: cancellation, options: transfer, retry: options.retry.policy, headers: headers)
        defer { documents.close() }
        let feed = try await makeFeed(
            checksum: checksum, described: try await metalinkEntries(cancellation: cancellation), documents: documents,
            cancellation: cancellation)
        let sums = batch.sumsFile.map {
            SumsFileChoice(argument: $0, directory: output.directory, requiresChecksums: batch.requiresChecksums)
        }
        try await runDownloads(
            .list(feed), inputList: batch.inputFile, options: options, onExists: output.onExists,
            namesFromServer: output.namesFromServer, stdoutCarriesData: output.target == .standardOutput, sums: sums,
            cancellation: cancellation)
    }

    /// A recursive download: its pages and files run as the items of one batch. Bad settings (a
    /// regex regcomp refuses, a start URL that is no http(s) URL) stop it before any transfer.
    private func runCrawl(_ request: CrawlRequest) async throws {
        let crawl: Crawl
        do {
            crawl = try Crawl(settings: request.settings, starts: request.starts)
        } catch {
            throw UsageFailure(message: error.message)
        }
        try await runDownloads(
            .crawl(crawl), options: options, onExists: request.onExists, stdoutCarriesData: false)
    }

    /// Every object under the S3 prefixes, as one batch: the listing is read as the objects
    /// download (`S3Listing`). Settings that cannot be read, or a prefix that is no S3 URL,
    /// stop it before any request (exit 2).
    private func runS3Listing() async throws {
        let access: S3Access
        switch options.s3.access() {
        case .success(let read): access = read
        case .failure(let failure): throw UsageFailure(message: failure.message)
        }
        let prefixes = try s3Prefixes.map { url in
            try usage { () throws(ItemFailure) in
                let parsed = try RequestSerializer.parseURL(url, for: .download)
                guard var location = S3Location(parsed) else {
                    throw ItemFailure(item: url, TransferFailure(.input(.s3URLMalformed)))
                }
                // With -r, `s3://b/photos` is the prefix `photos/`, as `aws s3 cp --recursive` reads it.
                if !location.isPrefix { location = S3Location(bucket: location.bucket, key: location.key + "/") }
                return location
            }
        }
        let cancellation = Cancellation()
        let interrupts = InterruptMonitor(stopping: cancellation)
        defer { withExtendedLifetime(interrupts) {} }
        let (transfer, headers) = try documentSettings()
        let listing = S3Listing(
            prefixes: prefixes, access: access, directory: output.directory, include: options.s3.include,
            exclude: options.s3.exclude)
        let feed = listing.feed(
            shard: batch.shard, cancellation: cancellation, options: transfer, retry: options.retry.policy, headers: headers)
        try await runDownloads(
            .list(feed, s3Listing: true), options: options, onExists: output.onExists, stdoutCarriesData: false,
            cancellation: cancellation)
    }

    /// The command line's URLs, then the list's entries as it is read. A list file is checked
    /// first, whole: a conflict stops the run before any transfer (exit 2), and the Metalink
    /// documents it names are read then.
    private func makeFeed(
        checksum: Checksum?, described: [InputList.Entry], documents: ListDocuments, cancellation: Cancellation
    ) async throws -> ItemFeed {
        let urlItems = BatchPlan.items(
            urls: urls.map(TypedURL.completed), output: output.target, list: described, directory: output.directory,
            checksum: checksum,
            mirrors: batch.mirrors)
        let plan = BatchPlan.check(urlItems, onConflict: output.onConflict)
        if let conflict = plan.conflict { throw UsageFailure(message: "\(conflict)") }
        say(plan.notices)
        guard let list = batch.inputFile else { return ItemFeed(items: plan.items, shard: batch.shard) }
        // A regular file gets its first pass; a pipe (-, /dev/stdin, <(...), a FIFO) is read
        // once, its duplicates refused as they arrive.
        var firstPass: ListCheck?
        if list != "-" && fileKind(at: list, followingSymlinks: true) == S_IFREG {
            let made = await ListCheck.made(
                list: list, after: plan.items, firstIndex: urls.count + described.count, directory: output.directory,
                report: options.run.report, shard: batch.shard, onConflict: output.onConflict, documents: documents)
            let check = try usage { () throws(ItemFailure) in try made.get() }
            if let document = check.stoppedFetching {
                OutputStream.standardError.writeLine("afget: interrupted while fetching \(document)")
                throw ExitCode(cancellation.exitStatus ?? FailureClass.internalError.exitCode)
            }
            if let conflict = check.conflict { throw UsageFailure(message: "\(conflict)") }
            if let clash = check.reportClash { throw UsageFailure(message: FailureReason.input(clash).words) }
            say(check.notices)
            firstPass = check
        }
        return try usage { () throws(ItemFailure) in
            try ItemFeed(
                items: plan.items, list: list, firstIndex: urls.count + described.count, directory: output.directory,
                firstPass: firstPass,
                report: options.run.report, shard: batch.shard, onConflict: output.onConflict, documents: documents)
        }
    }

    /// The files of `--metalink`'s document as list entries: each named as the document says
    /// (below `-d`), checked against its strongest hash, fetched from its most preferred URL.
    /// A document that cannot be read or used is refused whole, before any transfer (exit 2);
    /// one given by URL is fetched first, with the run's settings.
    private func metalinkEntries(cancellation: Cancellation) async throws -> [InputList.Entry] {
        guard let argument = batch.metalink else { return [] }
        let name = removingPassword(from: argument)
        let files =
            argument.contains("://")
            ? try await fetchMetalink(argument, cancellation: cancellation)
            : try usage { () throws(ItemFailure) in try MetalinkReader.load(argument) }
        return files.map { InputList.Entry(metalinkFile: $0, document: name) }
    }

    /// `--metalink URL`: the document fetched by a task manager of its own (the run's is made
    /// with the items), with the run's headers, credentials, TLS, proxy and retries; Ctrl-C
    /// meanwhile (`cancellation`) ends the run as it would a download.
    private func fetchMetalink(_ url: String, cancellation: Cancellation) async throws -> [MetalinkFile] {
        let (transfer, headers) = try documentSettings()
        let manager = TaskManager(cancellation: cancellation)
        defer { manager.invalidate() }
        guard
            let body = try await DocumentFetch.body(
                of: url, for: "--metalink", manager: manager, options: transfer, retry: options.retry.policy,
                headers: headers)
        else {
            OutputStream.standardError.writeLine("afget: interrupted while fetching \(removingPassword(from: url))")
            throw ExitCode(manager.cancellation.exitStatus ?? FailureClass.internalError.exitCode)
        }
        return try usage { () throws(ItemFailure) in try MetalinkReader.files(in: body, name: removingPassword(from: url)) }
    }

    /// What a document (`--metalink URL`, one a list names) is fetched with: the run's
    /// headers, credentials, TLS, proxy and retries.
    private func documentSettings() throws -> (TransferOptions, [HTTPHeader]) {
        let connection = options.connection
        let headers = try reportingFailures { try connection.headers() }
        let transfer = try connection.transferOptions(
            auth: options.auth, tls: options.tls, retry: options.retry, remoteFiles: options.remoteFiles.settings())
        return (transfer, headers)
    }

    /// A list that cannot be read is a usage failure naming it (exit 2).
    private func usage<T>(_ body: () throws(ItemFailure) -> T) throws(UsageFailure) -> T {
        do {
            return try body()
        } catch {
            throw UsageFailure(message: "\(error)")
        }
    }

    private func say(_ notices: [String]) {
        if options.progress.style != .none {
            notices.forEach { OutputStream.standardError.writeLine($0) }
        }
    }
}
