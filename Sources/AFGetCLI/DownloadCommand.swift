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
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("no URL given") }
        try output.validate(urlCount: urls.count)
    }

    func run() async throws {
        let headers: [HTTPHeader]
        do {
            headers = try connection.headers()
        } catch {
            throw UsageFailure(message: error.message)
        }
        let settings = DownloadSettings(
            onExists: output.onExists, headers: headers, transfer: connection.transferOptions)
        let target = output.target
        let items = urls.enumerated().map { DownloadItem(index: $0.offset, url: $0.element, output: target) }
        let renderer = progress.style.makeRenderer(
            stdoutCarriesData: target == .standardOutput, showsSummary: items.count > 1)

        let manager = TaskManager()
        let summary = await DownloadRunner(manager: manager, renderer: renderer, settings: settings).run(items)
        renderer.finish()
        manager.invalidate()
        if summary.exitCode != 0 {
            throw ExitCode(summary.exitCode)
        }
    }
}
