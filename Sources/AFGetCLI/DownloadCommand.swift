import AFGetSupport
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
    @OptionGroup var options: DownloadingOptions

    func validate() throws {
        guard !urls.isEmpty || batch.inputFile != nil else { throw ValidationError("no URL given (and no -i list)") }
        // `afget -q resume` reads "resume" as a URL of the default command.
        let commandNames = AFGetCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        if let command = urls.first(where: commandNames.contains) {
            throw ValidationError("\(command) is a command, not a URL: put options after it (afget \(command) -q ...)")
        }
        try output.validate(urlCount: urls.count, hasList: batch.inputFile != nil)
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
        let items = BatchPlan.items(
            urls: urls, output: output.target, list: list?.entries ?? [],
            directory: output.directory, checksum: checksum)
        let plan = BatchPlan.check(items)
        if let conflict = plan.conflict {
            throw UsageFailure(message: "\(conflict)")
        }
        if options.progress.style != .none {
            plan.notices.forEach { OutputStream.standardError.writeLine($0) }
        }
        try await runDownloads(
            plan.items, alreadyFailed: list?.problems ?? [], inputList: batch.inputFile, options: options,
            onExists: output.onExists,
            namesFromServer: output.namesFromServer, stdoutCarriesData: output.target == .standardOutput)
    }
}
