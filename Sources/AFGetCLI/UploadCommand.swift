import AFGetProgress
import AFGetRequest
import AFGetSupport
import AFGetKit
import ArgumentParser
import Glibc

/// `afget upload FILE... URL`: parses the files, the URL and the form, and hands them to the
/// library's `UploadRunner` (live progress; the server's response bodies go to stdout).
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload files (PUT by default); a URL ending in / gets each file's name appended.",
        discussion: """
            "-" uploads standard input (streamed, not retried). With --field NAME each file is sent \
            in a multipart form under NAME, with any name=value arguments as extra fields. To an \
            s3://BUCKET/KEY URL a file is one signed PUT, or from --multipart-threshold on a multipart \
            upload whose parts go -s at a time; the same command continues an interrupted one.
            """
    )

    @Argument(help: ArgumentHelp("Files (or - for standard input), then the URL.", valueName: "file-url"), completion: .file())
    var arguments: [String] = []

    @Option(name: .long, help: ArgumentHelp("The method to send with.", valueName: "method"))
    var method = "PUT"

    @Option(name: .long, help: ArgumentHelp("Send each file as this field of a multipart form.", valueName: "name"))
    var field: String?

    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Authentication and cookies") var auth: AuthOptions
    @Flag(name: .customLong("create-dirs"), help: "Over FTP and SFTP, create the directories of the URL that are missing.")
    var createsDirectories = false

    @OptionGroup(title: "TLS") var tls: TLSOptions
    @OptionGroup(title: "FTP and SSH") var remoteFiles: RemoteFileOptions
    @OptionGroup(title: "S3") var s3: S3Options
    @OptionGroup(title: "S3 uploads") var s3Upload: S3UploadOptions
    @OptionGroup(title: "Retry") var retry: RetryOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions
    @OptionGroup(title: "Config file") var config: ConfigFileOptions

    func validate() throws {
        guard arguments.count >= 2 else { throw ValidationError("give at least one file and then the URL") }
        guard method.utf8.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
            throw ValidationError("--method \"\(method)\" is not a method name")
        }
        if arguments.dropLast().filter({ $0 == UploadPlan.standardInputName }).count > 1 {
            throw ValidationError("standard input (-) can be uploaded once")
        }
    }

    func run() async throws {
        let url = arguments.last!
        // The S3 options (-r, -s, --part-size, ...) mean nothing to other URLs, and a config
        // file written for downloads may set `split` or `recursive`: they are left unused.
        if url.lowercased().hasPrefix("s3://") { return try await runS3(url) }
        var files: [String] = []
        var extraFields: [(name: String, value: String)] = []
        for argument in arguments.dropLast() {
            if field != nil, let field = Self.extraField(argument) {
                extraFields.append(field)
            } else {
                files.append(argument)
            }
        }
        guard !files.isEmpty else { throw UsageFailure(message: "no file to upload") }
        let shownURL = removingPassword(from: url)
        // Each PUT replaces what is at its URL: several files to one URL would keep only the last.
        if files.count > 1 && field == nil && method.uppercased() == "PUT" && !url.hasSuffix("/") {
            throw UsageFailure(
                message: "\(files.count) files would all be PUT to \(shownURL), each replacing the one "
                    + "before; end the URL with / to upload each under its own name")
        }
        let plan = try reportingFailures {
            let parsed = try RequestSerializer.parseURL(url, for: .upload)
            // A file on an FTP or SSH server is stored whole: there is no method or form to send.
            if parsed.isRemoteFile && (method.uppercased() != "PUT" || field != nil) {
                throw UsageFailure(
                    message: "\(shownURL): \(parsed.scheme):// uploads store the file as it is (no --method or --field)")
            }
            return UploadPlan(
                method: method.uppercased(), formField: field, extraFields: extraFields,
                headers: try connection.headers())
        }

        let renderer = SharedRenderer(progress.style.makeRenderer(stdoutCarriesData: true, showsSummary: files.count > 1))
        let setup = try ExchangeSetup(
            connection: connection, auth: auth, tls: tls, retry: retry,
            remoteFiles: remoteFiles.settings(createsDirectories: createsDirectories))
        let runner = UploadRunner(manager: setup.manager, renderer: renderer, options: setup.options, retry: retry.policy)
        let summary = await runner.run(files, to: url, plan: plan)
        renderer.finish()
        setup.manager.invalidate()
        if summary.exitCode != 0 { throw ExitCode(summary.exitCode) }
    }

    /// Files (or, with -r, directories' files) to an S3 object or prefix: signed as the
    /// downloads are, whole or in parts.
    private func runS3(_ url: String) async throws {
        let files = Array(arguments.dropLast())
        let uploads = try reportingFailures {
            let parsed = try RequestSerializer.parseURL(url, for: .download)
            guard let location = S3Location(parsed) else {
                throw ItemFailure(item: url, TransferFailure(.input(.s3URLMalformed)))
            }
            if method.uppercased() != "PUT" || field != nil {
                throw UsageFailure(message: "\(url): an S3 object is stored as it is (no --method or --field)")
            }
            if files.contains(UploadPlan.standardInputName) {
                throw UsageFailure(message: "\(url): standard input (-) cannot go to S3: its length is not known up front")
            }
            if files.count > 1 && !location.isPrefix && !s3Upload.recursive {
                throw UsageFailure(
                    message: "\(files.count) files would all be PUT to \(url), each replacing the one before; end the URL "
                        + "with / to upload each under its own name")
            }
            return try S3Upload.targets(files, to: location, recursive: s3Upload.recursive)
                .filter { s3.chosen(relativePath: $0, to: location) }
        }
        let access: S3Access
        switch s3.access() {
        case .success(let found): access = found
        case .failure(let failure): throw failure
        }
        let renderer = SharedRenderer(
            progress.style.makeRenderer(stdoutCarriesData: true, showsSummary: uploads.count > 1))
        let setup = try ExchangeSetup(connection: connection, auth: auth, tls: tls, retry: retry)
        if setup.options.verbose { renderer.handle(.notice("S3: \(access.summary)")) }
        let runner = S3UploadRunner(
            manager: setup.manager, renderer: renderer, options: setup.options, retry: retry.policy, access: access,
            settings: s3Upload.settings, headers: try reportingFailures { try connection.headers() })
        let summary = await runner.run(uploads)
        renderer.finish()
        setup.manager.invalidate()
        if summary.exitCode != 0 { throw ExitCode(summary.exitCode) }
    }

    /// `name=value` when it does not name an existing file: an extra form field.
    static func extraField(_ argument: String) -> (name: String, value: String)? {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex, access(argument, F_OK) != 0
        else { return nil }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
