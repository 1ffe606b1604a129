import AFGetKit
import ArgumentParser
import Glibc

/// `afget upload FILE... URL`: each file sent in an upload task, with live progress; the
/// server's response bodies go to stdout.
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload files (PUT by default); a URL ending in / gets each file's name appended.",
        discussion: """
            "-" uploads standard input (streamed, not retried). With --field NAME each file is sent \
            in a multipart form under NAME, with any name=value arguments as extra fields.
            """
    )

    @Argument(help: ArgumentHelp("Files (or - for standard input), then the URL.", valueName: "file-url"))
    var arguments: [String] = []

    @Option(name: .long, help: ArgumentHelp("The method to send with (default PUT).", valueName: "method"))
    var method = "PUT"

    @Option(name: .long, help: ArgumentHelp("Send each file as this field of a multipart form.", valueName: "name"))
    var field: String?

    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Authentication and cookies") var auth: AuthOptions
    @OptionGroup(title: "TLS") var tls: TLSOptions
    @OptionGroup(title: "Retry") var retry: RetryOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

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
            throw UsageFailure(message: "\(files.count) files would all be PUT to \(shownURL), each replacing the one "
                + "before; end the URL with / to upload each under its own name")
        }
        let plan = try reportingFailures {
            _ = try RequestSerializer.parseURL(url)
            return UploadPlan(method: method.uppercased(), formField: field, extraFields: extraFields,
                              headers: try connection.headers())
        }

        let renderer = SharedRenderer(progress.style.makeRenderer(stdoutCarriesData: true, showsSummary: files.count > 1))
        let setup = try ExchangeSetup(connection: connection, auth: auth, tls: tls, retry: retry, renderer: renderer)
        let interrupts = setup.interrupts.status
        var summary = RunSummary()
        summary.isUpload = true
        var exitCodes: [Int32] = []
        let startedAt = monotonicSeconds()
        for (index, file) in files.enumerated() where !interrupts.wasInterrupted {
            let failure = await upload(file, index: index, to: url, plan: plan, runner: setup.runner, renderer: renderer,
                                       sentCredentials: setup.options.sendsCredentials, summary: &summary)
            if let failure {
                exitCodes.append(failure.exitCode)
                summary.failed += 1
            }
        }
        summary.seconds = monotonicSeconds() - startedAt
        summary.exitCode = interrupts.exitStatus ?? ExitStatus.combined(exitCodes)
        if interrupts.wasInterrupted { OutputStream.standardError.writeLine("afget: interrupted") }
        renderer.handle(.summary(summary))
        renderer.finish()
        setup.manager.invalidate()
        if summary.exitCode != 0 { throw ExitCode(summary.exitCode) }
    }

    /// Sends one file; the response body goes to stdout whatever its status. Messages and events
    /// name the URL the file went to (with its name appended to a URL ending in /).
    private func upload(_ file: String, index: Int, to url: String, plan: UploadPlan, runner: ExchangeRunner,
                        renderer: SharedRenderer, sentCredentials: Bool, summary: inout RunSummary) async -> ItemFailure? {
        let request: HTTPRequest
        do {
            request = try plan.request(for: file, to: url)
        } catch {
            renderer.handle(.failed(ItemInfo(id: index, url: removingPassword(from: url), path: file), error))
            return error
        }
        // "-" names standard output wherever afget writes; here it is what is read.
        let shownFile = file == UploadPlan.standardInputName ? "(stdin)" : file
        let info = ItemInfo(id: index, url: removingPassword(from: request.url.absoluteString), path: shownFile)
        let outcome = await runner.run(request, info: info)
        if outcome.interrupted { return nil }
        guard let response = outcome.response else {
            let failure = ItemFailure(item: shownFile, outcome.failure ?? TransferFailure(.internalError, "no response"))
            renderer.handle(.failed(info, failure))
            return failure
        }
        if let code = OutputStream.standardOutput.write(bytes: response.body) {
            let failure = ItemFailure(item: shownFile, fileFailure("write", "standard output", errno: code))
            renderer.handle(.failed(info, failure))
            return failure
        }
        if let judged = outcome.failure ?? ResponseSerializer().validate(response.head, sentCredentials: sentCredentials) {
            let failure = ItemFailure(item: shownFile, TransferFailure(judged.kind, "\(info.url): \(judged.message)"))
            renderer.handle(.failed(info, failure))
            return failure
        }
        summary.downloaded += 1
        summary.bytes += response.progress.sent
        let sent = response.progress.sent
        renderer.handle(.done(info, bytes: sent, transferred: sent, seconds: outcome.seconds, sha256: nil))
        return nil
    }

    /// `name=value` when it does not name an existing file: an extra form field.
    static func extraField(_ argument: String) -> (name: String, value: String)? {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex, access(argument, F_OK) != 0
        else { return nil }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
