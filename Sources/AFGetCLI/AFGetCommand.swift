import AFGetSupport
import AFGetKit
import ArgumentParser

/// `afget`: the root command. `download` is the default, so `afget URL` downloads.
public struct AFGetCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "afget",
        abstract:
            "Download files over HTTP, HTTPS, FTP, FTPS, SFTP and SCP, and from S3 buckets, with live progress, safe to interrupt and re-run.",
        discussion: "Exit status: 0 success, 1 internal error, 2 usage, 3 local file, 4 network, 5 TLS, "
            + "6 authentication, 7 protocol, 8 HTTP error, 9 resume conflict, 10 checksum, "
            + "11 destination exists, 12 destination busy, 130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP). See afget(1).",
        // The libraries are named only when --version is asked for (`Entry.successText`):
        // asking libcurl for them initializes OpenLDAP and its SASL plug-ins, milliseconds a
        // download would spend before its first connection.
        version: AFGetVersion.current,
        subcommands: [DownloadCommand.self, ResumeCommand.self, RequestCommand.self, UploadCommand.self],
        defaultSubcommand: DownloadCommand.self
    )

    public init() {}

    /// The subcommands' names: download, resume, request, upload.
    static var commandNames: [String] { configuration.subcommands.compactMap { $0.configuration.commandName } }
}
