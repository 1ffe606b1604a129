import AFGetSupport
import AFGetKit
import ArgumentParser

/// `afget resume [PATH...]`: continues downloads from their resume data alone.
struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract:
            "Continue downloads from .afresume files (every one in a directory; default: the current directory, else the directories below it that hold some)."
    )

    @Argument(help: ArgumentHelp("A .afresume file or a directory holding some.", valueName: "path"), completion: .file())
    var paths: [String] = []

    @Option(
        name: .customLong("url"),
        help: ArgumentHelp(
            "Continue one resume file against this URL instead (an expired signed link); the file's validators and length must still match.",
            valueName: "url"))
    var replacementURL: String?

    @OptionGroup var options: DownloadingOptions

    func run() async throws {
        let commandHeaders = try reportingFailures { try options.connection.headers() }
        let found = ResumeDiscovery.find(paths, replacementURL: replacementURL, commandHeaders: commandHeaders)
        // Said unless the run is to be silent (or read by a script): nothing to do, or where
        // the resume data continued was found when it was not where the command ran.
        let tells = options.progress.style != .none && options.progress.style != .json
        let suffix = ResumeStore.suffix
        if found.items.isEmpty && found.failures.isEmpty {
            // Nothing left to do is success, but silence would leave a person wondering.
            if tells {
                let places =
                    paths.isEmpty
                    ? ". or the directories below it (\(ResumeDiscovery.searchDepth) levels down)"
                    : paths.joined(separator: ", ")
                OutputStream.standardError.writeLine("afget: nothing to resume: no \(suffix) files in \(places)")
            }
            return
        }
        if tells && !found.foundBelow.isEmpty {
            let places = found.foundBelow.joined(separator: ", ")
            OutputStream.standardError.writeLine("afget: no \(suffix) files in .; continuing those in \(places)")
        }
        try await runDownloads(
            .list(ItemFeed(items: found.items)), alreadyFailed: found.failures, options: options, onExists: .skip,
            stdoutCarriesData: false)
    }
}
