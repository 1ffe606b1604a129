@testable import AFGetSession
@testable import AFGetCLI
import AFGetKit
import ArgumentParser
import XCTest

/// Arguments → the plan of a download, without running anything.
final class ParsingTests: XCTestCase {
    private func download(_ arguments: [String]) throws -> DownloadCommand {
        let command = try AFGetCommand.parseAsRoot(arguments)
        return try XCTUnwrap(command as? DownloadCommand, "download is the default subcommand")
    }

    func testDefaults() throws {
        let command = try download(["http://h/f"])
        XCTAssertEqual(command.urls, ["http://h/f"])
        XCTAssertEqual(command.output.target, .directory("."))
        XCTAssertEqual(command.output.onExists, .skip)
        XCTAssertEqual(command.options.progress.style, .auto)
        let options = command.options.connection.transferOptions
        XCTAssertEqual(options.redirects, RedirectPolicy(follow: true, maxRedirects: 10))
        XCTAssertEqual(options.connectTimeout, 30)
        XCTAssertEqual(options.stallTimeout, 30)
        XCTAssertFalse(options.verbose)
    }

    func testEveryDownloadOption() throws {
        let command = try download([
            "download", "-o", "-", "--on-exists", "rename", "-H", "A: 1", "--header", "B: 2",
            "--max-redirects", "3", "--no-follow", "--connect-timeout", "2.5", "--stall-timeout", "9",
            "-v", "--progress", "json", "http://h/f",
        ])
        XCTAssertEqual(command.output.target, .standardOutput)
        XCTAssertEqual(command.output.onExists, .rename)
        XCTAssertEqual(try command.options.connection.headers().map(\.line), ["A: 1", "B: 2"])
        XCTAssertEqual(
            command.options.connection.transferOptions,
            TransferOptions(
                redirects: RedirectPolicy(follow: false, maxRedirects: 3),
                connectTimeout: 2.5, stallTimeout: 9, verbose: true))
        XCTAssertEqual(command.options.progress.style, .json)
        XCTAssertEqual(try download(["-q", "--progress", "bar", "http://h/"]).options.progress.style, .none)
        XCTAssertEqual(try download(["-d", "out", "http://h/"]).output.target, .directory("out"))
        XCTAssertEqual(try download(["-o", "./...", "http://h/"]).output.target, .path("./..."))
        XCTAssertEqual(try download(["-o", "x.bin", "http://h/"]).output.target, .path("x.bin"))
        // curl's --output-dir: -d holds -o's file.
        XCTAssertEqual(try download(["-o", "a/x.bin", "-P", "out", "http://h/"]).output.target, .path("out/a/x.bin"))
        XCTAssertEqual(try download(["http://h/"]).output.onConflict, .error)
        XCTAssertEqual(try download(["--on-conflict", "rename", "http://h/"]).output.onConflict, .rename)
    }

    func testResumeAndRetryOptions() throws {
        let defaults = try download(["http://h/"]).options.resume
        XCTAssertEqual(try download(["http://h/"]).options.retry.policy, RetryPolicy(maxRetries: 5, baseDelay: 1))
        XCTAssertFalse(defaults.restart)
        XCTAssertFalse(defaults.noRestart)
        let arguments = ["--retry", "2", "--retry-delay", "0.5", "--no-restart", "-c", "http://h/"]
        let given = try download(arguments).options.resume
        XCTAssertEqual(
            try download(arguments).options.retry.policy,
            RetryPolicy(maxRetries: 2, baseDelay: 0.5, retriesAnyMethod: true, firstContactTimeoutRetries: 2),
            "--retry given: a POST is retried too, and a host not answering as often as any failure")
        XCTAssertTrue(given.noRestart)
        XCTAssertTrue(given.continueDownloads)
        XCTAssertTrue(try download(["--restart", "http://h/"]).options.resume.restart)
    }

    func testResumeCommand() throws {
        let command = try XCTUnwrap(
            try AFGetCommand.parseAsRoot(["resume", "a.iso.afresume", "--url", "http://h/new", "-q"]) as? ResumeCommand)
        XCTAssertEqual(command.paths, ["a.iso.afresume"])
        XCTAssertEqual(command.replacementURL, "http://h/new")
        XCTAssertEqual(command.options.progress.style, .none)
        XCTAssertEqual(try XCTUnwrap(try AFGetCommand.parseAsRoot(["resume"]) as? ResumeCommand).paths, [])
    }

    func testRejectedCombinations() {
        for arguments in [
            [], ["-o", "a", "http://h/1", "http://h/2"], ["-o", "/a", "-d", "b", "http://h/"],
            ["-o", "-", "-d", "b", "http://h/"],
            ["--on-conflict", "number", "http://h/"],
            ["--on-exists", "maybe", "http://h/"], ["--progress", "fancy", "http://h/"],
            ["--max-redirects", "-1", "http://h/"], ["--stall-timeout", "0", "http://h/"],
            ["--restart", "--no-restart", "http://h/"], ["--retry", "-1", "http://h/"],
            ["-o", "sub/", "http://h/"], ["-o", "", "http://h/"], ["-o", ".", "http://h/"], ["-o", "x/..", "http://h/"],
            ["-i", ""], ["--report", "", "http://h/"],
        ] {
            XCTAssertThrowsError(try AFGetCommand.parseAsRoot(arguments), "\(arguments)")
        }
        // An option before the command name makes the command name a URL of `download`.
        XCTAssertThrowsError(try AFGetCommand.parseAsRoot(["-q", "resume"])) { error in
            XCTAssertEqual(
                AFGetCommand.message(for: error),
                "resume is a command, not a URL: put options after it (afget resume -q ...)")
        }
        XCTAssertNoThrow(try AFGetCommand.parseAsRoot(["resume", "-q"]))
    }

    func testProxyOptionsReachEveryCommandThatTransfers() throws {
        let given = try download(["-x", "http://u:p@proxy:3128", "--noproxy", "a.example,b", "http://h/"])
        XCTAssertEqual(given.options.connection.transferOptions.proxy.url, "http://u:p@proxy:3128")
        XCTAssertEqual(given.options.connection.transferOptions.proxy.bypass, "a.example,b")
        let none = try download(["--proxy", "", "http://h/"])
        XCTAssertEqual(none.options.connection.transferOptions.proxy.url, "", "an empty proxy turns proxies off")
        XCTAssertNil(try download(["http://h/"]).options.connection.transferOptions.proxy.url)
        for arguments in [
            ["request", "-x", "p:1", "http://h/"], ["upload", "-x", "p:1", "f", "http://h/"], ["resume", "-x", "p:1"],
        ] {
            XCTAssertNoThrow(try AFGetCommand.parseAsRoot(arguments), "\(arguments)")
        }
        XCTAssertThrowsError(try AFGetCommand.parseAsRoot(["-x", "gopher://p", "http://h/"])) { error in
            XCTAssertTrue(AFGetCommand.message(for: error).hasPrefix("--proxy: "), AFGetCommand.message(for: error))
        }
    }

    /// Double reads "inf", "nan" and "1e308"; a timeout of that many seconds overflowed
    /// libcurl's milliseconds and stopped afget with a Swift runtime trap.
    func testSecondsMustBeFiniteAndTimeoutsBounded() throws {
        for (option, value) in [
            ("--connect-timeout", "1e308"), ("--connect-timeout", "inf"), ("--stall-timeout", "nan"),
            ("--stall-timeout", "1000001"), ("--retry-delay", "inf"), ("--retry-delay", "nan"),
        ] {
            XCTAssertThrowsError(try AFGetCommand.parseAsRoot([option, value, "http://h/"])) { error in
                XCTAssertTrue(AFGetCommand.message(for: error).hasPrefix(option + " must be "), AFGetCommand.message(for: error))
            }
        }
        let longest = try XCTUnwrap(
            try AFGetCommand.parseAsRoot(["--connect-timeout", "1000000", "--retry-delay", "60", "http://h/"])
                as? DownloadCommand)
        XCTAssertEqual(longest.options.connection.transferOptions.connectTimeout, 1_000_000)
    }
}

/// Arguments of `afget request` and `afget upload`.
final class ExchangeParsingTests: XCTestCase {
    func testRequestMethodURLAndItems() throws {
        XCTAssertEqual(RequestCommand.split(["http://h/", "a=1"]).method, nil)
        let split = RequestCommand.split(["patch", "http://h/", "a=1"])
        XCTAssertEqual(split.method, "PATCH")
        XCTAssertEqual(split.url, "http://h/")
        XCTAssertEqual(split.items, ["a=1"])
        XCTAssertEqual(RequestCommand.split(["http://h/"]).url, "http://h/")
    }

    func testRequestOptions() throws {
        let command = try XCTUnwrap(
            try AFGetCommand.parseAsRoot([
                "request", "--json", "--array-format", "indices", "--accept-status", "200,404", "--accept-type", "text/*",
                "--pretty", "-i", "-o", "out", "-u", "ann:pw", "--auth", "digest", "--cookie", "a=b", "--cookie-jar", "jar",
                "--retry", "0", "http://h/",
            ]) as? RequestCommand)
        XCTAssertEqual(command.body.format, .json)
        XCTAssertEqual(command.body.arrayFormat, .indices)
        XCTAssertEqual(try command.response.serializer().acceptableStatusCodes, [200...200, 404...404])
        XCTAssertEqual(command.response.formatting, .pretty)
        XCTAssertTrue(command.response.include)
        XCTAssertEqual(command.response.output, "out")
        let options = try command.auth.applied(to: TransferOptions())
        XCTAssertEqual(options.credentials, Credentials(user: "ann", password: "pw", scheme: .digest))
        XCTAssertEqual(options.cookies, CookieOptions(header: "a=b", jar: "jar"))
        XCTAssertEqual(command.retry.policy.maxRetries, 0)
    }

    func testRequestMisuseIsRefused() {
        for arguments in [
            ["request"], ["request", "--content-type", "x/y", "http://h/"],
            ["request", "--accept-status", "ok", "http://h/"], ["request", "--netrc", "--netrc-file", "f", "http://h/"],
            ["request", "-o", "out/", "http://h/"], ["request", "-o", "", "http://h/"],
            // A type matching no response would fail every request after sending it.
            ["request", "--accept-type", "", "http://h/"], ["request", "--accept-type", "json", "http://h/"],
            ["request", "--accept-type", "text/", "http://h/"],
        ] {
            XCTAssertThrowsError(try AFGetCommand.parseAsRoot(arguments), "\(arguments)")
        }
    }

    func testUploadArguments() throws {
        let command = try XCTUnwrap(
            try AFGetCommand.parseAsRoot([
                "upload", "--method", "POST", "--field", "file", "a.txt",
                "http://h/",
            ]) as? UploadCommand)
        XCTAssertEqual(command.method, "POST")
        XCTAssertEqual(command.field, "file")
        XCTAssertEqual(command.arguments, ["a.txt", "http://h/"])
        XCTAssertEqual(UploadCommand.extraField("title=Q3")?.value, "Q3")
        XCTAssertNil(UploadCommand.extraField("=x"))
        for arguments in [
            ["upload", "http://h/"], ["upload", "--method", "P UT", "a", "http://h/"], ["upload", "-", "-", "http://h/"],
        ] {
            XCTAssertThrowsError(try AFGetCommand.parseAsRoot(arguments), "\(arguments)")
        }
    }
}

/// Security and limit options, shared by every command.
final class SecurityParsingTests: XCTestCase {
    func testTLSOptions() throws {
        let pin = "sha256//" + String(repeating: "A", count: 43) + "="
        let command = try XCTUnwrap(
            try AFGetCommand.parseAsRoot([
                "--cacert", "ca.pem", "--capath", "cas", "-k", "--pin-pubkey", "\(pin);\(pin)", "--cert", "c.pem", "--key",
                "k.pem",
                "http://h/",
            ]) as? DownloadCommand)
        let tls = try command.options.tls.settings()
        XCTAssertEqual(
            tls,
            TLSSettings(
                caFile: "ca.pem", caDirectory: "cas", insecure: true, publicKeyPins: [pin, pin],
                clientCertificate: "c.pem", clientKey: "k.pem"))
        for arguments in [["upload", "-k", "f", "http://h/"], ["request", "--insecure", "http://h/"], ["resume", "-k"]] {
            XCTAssertNoThrow(try AFGetCommand.parseAsRoot(arguments), "\(arguments)")
        }
        XCTAssertThrowsError(try AFGetCommand.parseAsRoot(["--key", "k.pem", "http://h/"]), "--key needs --cert")
        for bad in ["md5//abc", "sha256//", "sha256//abc", "sha256//" + String(repeating: "A", count: 40)] {
            XCTAssertThrowsError(try CertificatePins.parsePublicKeyPins(bad), bad)
        }
    }

    func testSplitOptions() throws {
        let defaults = try XCTUnwrap(try AFGetCommand.parseAsRoot(["http://h/"]) as? DownloadCommand)
        XCTAssertEqual(defaults.options.run.split, 1)
        XCTAssertEqual(defaults.options.run.minSplitSize.bytes, 1 << 20)
        let given = try XCTUnwrap(
            try AFGetCommand.parseAsRoot(["-s", "8", "--min-split-size", "256K", "http://h/"])
                as? DownloadCommand)
        XCTAssertEqual(given.options.run.split, 8)
        XCTAssertEqual(given.options.run.minSplitSize.bytes, 256 << 10)
        for bad in [["-s", "0"], ["-s", "65"], ["--min-split-size", "1K"]] {
            XCTAssertThrowsError(try AFGetCommand.parseAsRoot(bad + ["http://h/"]), "\(bad)")
        }
        let help = AFGetCommand.helpMessage(for: DownloadCommand.self, columns: 200)
        XCTAssertTrue(help.contains("(default: 1M)"), "the default size as it would be typed")
        XCTAssertFalse(help.contains("ByteCount"))
        XCTAssertEqual(ByteCount(bytes: 1536).typed, "1536")
        XCTAssertEqual(ByteCount(bytes: 3 << 30).typed, "3G")
    }

    func testOnExistsHelpListsTheModesOnce() throws {
        let help = AFGetCommand.helpMessage(for: DownloadCommand.self, columns: 400)
        let line = try XCTUnwrap(help.split(separator: "\n").first { $0.contains("--on-exists") })
        XCTAssertTrue(line.contains("(values: skip, overwrite, rename, error, update; default: skip)"), String(line))
        XCTAssertEqual(line.components(separatedBy: "overwrite").count, 2, "the modes once, not twice: \(line)")
    }

    func testLimitsAndNames() throws {
        let command = try XCTUnwrap(
            try AFGetCommand.parseAsRoot(["-J", "--compressed", "--max-size", "10M", "http://h/"])
                as? DownloadCommand)
        XCTAssertTrue(command.output.namesFromServer)
        XCTAssertTrue(command.options.connection.transferOptions.decompresses)
        XCTAssertEqual(command.options.connection.transferOptions.limits.maxBodyBytes, 10 << 20)
        let limited = try XCTUnwrap(try AFGetCommand.parseAsRoot(["--limit-rate", "500K", "http://h/"]) as? DownloadCommand)
        XCTAssertEqual(limited.options.connection.transferOptions.rateLimit, 500 << 10)
        XCTAssertNil(command.options.connection.transferOptions.rateLimit)
        XCTAssertThrowsError(try AFGetCommand.parseAsRoot(["--limit-rate", "100", "http://h/"]))
        for option in ["--limit-rate", "--max-size", "--min-split-size"] {
            XCTAssertThrowsError(try AFGetCommand.parseAsRoot([option, "abc", "http://h/"])) { error in
                XCTAssertEqual(
                    AFGetCommand.message(for: error),
                    "The value 'abc' is invalid for '\(option) <\(option == "--limit-rate" ? "rate" : "bytes")>': "
                        + "expected a number of bytes with an optional K, M or G suffix, as in 512K or 1.5M")
            }
        }
        let unlimited = try XCTUnwrap(try AFGetCommand.parseAsRoot(["--limit-rate", "0", "http://h/"]) as? DownloadCommand)
        XCTAssertNil(unlimited.options.connection.transferOptions.rateLimit, "0 is no limit, as in curl and wget")
        XCTAssertEqual(ByteCount(argument: "512")?.bytes, 512)
        XCTAssertEqual(ByteCount(argument: "2k")?.bytes, 2048)
        XCTAssertEqual(ByteCount(argument: "1G")?.bytes, 1 << 30)
        XCTAssertEqual(ByteCount(argument: "1.5M")?.bytes, 3 << 19)
        XCTAssertEqual(ByteCount(argument: "0.5k")?.bytes, 512)
        XCTAssertEqual(ByteCount(argument: "2.0")?.bytes, 2)
        for bad in [
            "", "-1", "10X", "M", "99999999999999999999G", "1e3", "nan", "inf", "0x10", "1.5.5K", ".", "-0.5M",
            "9000000000.5G",
        ] {
            XCTAssertNil(ByteCount(argument: bad), bad)
        }
    }
}

/// A recursive download's options → the crawl's settings (run once the driver takes a `Crawl`).
final class CrawlParsingTests: XCTestCase {
    private func request(_ arguments: [String]) throws -> CrawlRequest? {
        let command = try XCTUnwrap(try AFGetCommand.parseAsRoot(arguments) as? DownloadCommand)
        return try command.crawlRequest()
    }

    func testNoCrawlWithoutRecursiveOrRequisites() throws {
        XCTAssertNil(try request(["http://h/f"]))
        XCTAssertNil(try request(["--mirror", "http://m/f", "http://h/f"]), "afget's --mirror: another source")
    }

    func testWgetsUsualCommands() throws {
        let directory = try XCTUnwrap(
            try request(["-r", "-np", "-nH", "--cut-dirs=2", "-R", "index.html*", "-d", "out", "https://h/pub/data/"]))
        var expected = CrawlSettings()
        expected.noParent = true
        expected.reject = ["index.html*"]
        expected.layout = CrawlLayout(directory: "out", hostDirectories: false, cutDirectories: 2)
        XCTAssertEqual(directory, CrawlRequest(settings: expected, starts: ["https://h/pub/data/"], onExists: .skip))

        let mirror = try XCTUnwrap(try request(["--mirror", "https://docs.example.org/", "-p", "--convert-links"]))
        expected = CrawlSettings()
        expected.level = nil
        expected.pageRequisites = true
        expected.convertsLinks = true
        XCTAssertEqual(mirror, CrawlRequest(settings: expected, starts: ["https://docs.example.org/"], onExists: .update))
    }

    func testEachOption() throws {
        let rows: [([String], (inout CrawlSettings) -> Void, UInt)] = [
            (["-l", "3"], { $0.level = 3 }, #line),
            (["--level", "inf"], { $0.level = nil }, #line),
            (["-l", "0"], { $0.level = nil }, #line),
            (["--no-parent"], { $0.noParent = true }, #line),
            (["--accept", "*.iso,*.pdf", "--accept", "txt"], { $0.accept = ["*.iso,*.pdf", "txt"] }, #line),
            (["--reject", "*.tmp"], { $0.reject = ["*.tmp"] }, #line),
            (
                ["--accept-regex", "/pub/.*", "--reject-regex", "\\?"],
                {
                    $0.acceptRegex = "/pub/.*"
                    $0.rejectRegex = "\\?"
                }, #line
            ),
            (
                ["--span-hosts", "-D", "a.org,b.org"],
                {
                    $0.spanHosts = true
                    $0.domains = ["a.org,b.org"]
                }, #line
            ),
            (
                ["--no-host-directories", "--no-directories"],
                {
                    $0.layout.hostDirectories = false
                    $0.layout.directories = false
                }, #line
            ),
            (["-p"], { $0.pageRequisites = true }, #line),
            (["--robots", "off"], { $0.obeysRobots = false }, #line),
            (["-e", "robots=off"], { $0.obeysRobots = false }, #line),
            (["--robots", "off", "-e", "robots = on"], { _ in }, #line),
            (["-P", "site"], { $0.layout.directory = "site" }, #line),
        ]
        for (options, change, line) in rows {
            var expected = CrawlSettings()
            change(&expected)
            XCTAssertEqual(try request(["-r"] + options + ["http://h/"])?.settings, expected, "\(options)", line: line)
        }
        var requisitesOnly = CrawlSettings()
        requisitesOnly.recursive = false
        requisitesOnly.pageRequisites = true
        XCTAssertEqual(try request(["-p", "http://h/page.html"])?.settings, requisitesOnly)
    }

    func testRefusals() {
        let rows: [([String], String, UInt)] = [
            (["-r", "-l", "many", "http://h/"], "-l/--level many: give a count or inf", #line),
            (["-r", "--cut-dirs=-1", "http://h/"], "--cut-dirs must be 0 or more", #line),
            (["-r", "-e", "wait=1", "http://h/"], "-e wait=1: afget takes wget's robots=off and robots=on only", #line),
            (
                ["-r", "--reject-regex", "a(b", "http://h/"], "--reject-regex \"a(b\" is not a POSIX extended regular expression",
                #line
            ),
            (["-np", "http://h/"], "-np/--no-parent applies to a recursive download: add -r", #line),
            (["-r", "-i", "list.txt"], "a recursive download starts from the URLs on the command line", #line),
            (["-r", "-o", "x.html", "http://h/"], "-o/--output names one file", #line),
            (["--robots", "maybe", "-r", "http://h/"], "maybe", #line),
        ]
        for (arguments, message, line) in rows {
            XCTAssertThrowsError(try AFGetCommand.parseAsRoot(arguments), "\(arguments)", line: line) { error in
                let said = AFGetCommand.message(for: error)
                XCTAssertTrue(said.contains(message), "\(arguments): \(said)", line: line)
            }
        }
    }
}
