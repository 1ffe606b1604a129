import AFGetSupport
import AFGetKit
import ArgumentParser

/// `afget resume [PATH...]`: continues downloads from their resume data alone.
struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Continue downloads from .afresume files (every one in a directory; default: the current directory)."
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
        if found.items.isEmpty && found.failures.isEmpty {
            // Nothing left to do is success, but silence would leave a person wondering.
            if options.progress.style != .none && options.progress.style != .json {
                let places = paths.isEmpty ? "." : paths.joined(separator: ", ")
                OutputStream.standardError.writeLine("afget: nothing to resume: no \(ResumeStore.suffix) files in \(places)")
            }
            return
        }
        try await runDownloads(
            ItemFeed(items: found.items), alreadyFailed: found.failures, options: options, onExists: .skip,
            stdoutCarriesData: false)
    }
}
