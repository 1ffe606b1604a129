import AFGetSession
import AFGetSupport
import AFGetKit
import ArgumentParser
import FoundationEssentials
import Glibc

/// Credentials and cookies (every subcommand). Both go to the first request's origin only.
struct AuthOptions: ParsableArguments {
    @Option(
        name: [.customShort("u"), .long],
        help: ArgumentHelp(
            "Credentials for the server named on the command line.", valueName: "user:password"))
    var user: String?

    @Option(name: .long, help: ArgumentHelp("basic (default), digest or any.", valueName: "scheme"))
    var auth: Credentials.Scheme = .basic

    @Flag(name: .long, help: "Take credentials from $NETRC or ~/.netrc.")
    var netrc = false

    @Option(
        name: .customLong("netrc-file"), help: ArgumentHelp("Take credentials from this netrc file.", valueName: "file"),
        completion: .file())
    var netrcFile: String?

    @Option(name: .long, help: ArgumentHelp("Cookies to send, as in a Cookie header.", valueName: "name=value[; ...]"))
    var cookie: String?

    @Option(
        name: .customLong("cookie-jar"),
        help: ArgumentHelp(
            "Read cookies from this file and save the server's cookies to it (Netscape format).", valueName: "file"),
        completion: .file())
    var cookieJar: String?

    func validate() throws {
        if netrc && netrcFile != nil { throw ValidationError("--netrc and --netrc-file cannot be combined") }
    }

    /// `options` with the credentials and cookies added; warns when a netrc file is readable by
    /// others. A `--netrc-file` that cannot be read or a `--cookie-jar` that cannot be written is
    /// refused before any request (libcurl would go on without them, silently); a missing
    /// ~/.netrc is not, as in curl.
    func applied(to options: TransferOptions) throws(TransferFailure) -> TransferOptions {
        var options = options
        options.credentials = user.map { Credentials.parse($0, scheme: auth) }
        if let netrcFile { try FileChecks.readable(netrcFile, toDo: .readTheNetrcFile) }
        options.netrcFile = netrcFile ?? (netrc ? Self.standardNetrc : nil)
        if let path = options.netrcFile {
            Self.warnIfShared(path)
        }
        if let cookieJar {
            // libcurl saves a jar that is a file by writing a file beside it and renaming that
            // over it, which would replace /dev/stdout itself when it is redirected to a file.
            if OutputStream.named(cookieJar) != nil {
                throw TransferFailure(.input(.cookieJarNotFile(cookieJar)))
            }
            try FileChecks.writable(cookieJar, toDo: .writeTheCookieJar)
        }
        options.cookies = CookieOptions(header: cookie, jar: cookieJar)
        return options
    }

    private static var standardNetrc: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["NETRC"], !path.isEmpty { return path }
        return (environment["HOME"] ?? homeDirectoryFromPasswd()) + "/.netrc"
    }

    /// The user's home from the password database, for when HOME is not set.
    private static func homeDirectoryFromPasswd() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "" }
        return String(cString: directory)
    }

    /// Only a file the group or others may read: a device (`/dev/null`) holds no passwords,
    /// and a bit that lets others write but not read is not what the warning says.
    private static func warnIfShared(_ path: String) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o044 != 0 {
            OutputStream.standardError.writeLine(
                "afget: warning: \(path) can be read by other users; chmod 600 it")
        }
    }
}

extension Credentials.Scheme: ExpressibleByArgument {}
