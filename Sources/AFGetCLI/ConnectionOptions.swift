import AFGetRequest
import AFGetSession
import AFGetSupport
import AFGetKit
import ArgumentParser

/// How requests are made: headers, redirects, timeouts, verbosity.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: [.customShort("H"), .long],
        help: ArgumentHelp(
            "Extra request header (repeatable); never sent to another origin after a redirect.",
            valueName: "Name: value"))
    var header: [String] = []

    @Option(name: .customLong("max-redirects"), help: ArgumentHelp("Redirects to follow at most.", valueName: "n"))
    var maxRedirects = 10

    @Flag(name: .customLong("no-follow"), help: "Do not follow redirects.")
    var noFollow = false

    @Flag(
        name: [.customShort("L"), .customLong("location")],
        help: "Accepted for curl users: redirects are followed already (--no-follow turns that off).")
    var location = false

    @Option(
        name: [.customShort("A"), .customLong("user-agent")],
        help: ArgumentHelp("User-Agent to send instead of afget/VERSION (to every host).", valueName: "string"))
    var userAgent: String?

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp(
            "Seconds allowed to connect.", valueName: "seconds"))
    var connectTimeout = 30.0

    @Option(
        name: .customLong("stall-timeout"),
        help: ArgumentHelp(
            "Seconds without receiving a byte before the transfer fails.", valueName: "seconds"))
    var stallTimeout = 30.0

    @Option(
        name: [.customShort("m"), .customLong("max-time")],
        help: ArgumentHelp(
            "Seconds an item may take in all, retries included (exit 4; a download keeps its data to continue).",
            valueName: "seconds"))
    var maxTime: Double?

    @Option(
        name: [.customShort("x"), .customLong("proxy")],
        help: ArgumentHelp(
            "Send requests through this proxy: [SCHEME://][USER:PASSWORD@]HOST[:PORT], http:// unless another scheme "
                + "is given; \"\" for none, not even from http_proxy, https_proxy or all_proxy.",
            valueName: "url"))
    var proxy: String?

    @Option(
        name: .customLong("noproxy"),
        help: ArgumentHelp(
            "Hosts to reach directly, not through a proxy (instead of no_proxy): comma-separated names, each "
                + "covering its subdomains, or addresses; * for every host.",
            valueName: "hosts"))
    var noProxy: String?

    @Flag(name: [.short, .long], help: "Show request and response headers on stderr (secrets masked).")
    var verbose = false

    @Option(
        name: .customLong("max-size"),
        help: ArgumentHelp(
            "Refuse bodies larger than this, counted after decoding (exit 7); K, M, G suffixes allowed.", valueName: "bytes"),
        transform: ByteCount.parse)
    var maxSize: ByteCount?

    @Flag(name: .long, help: "Ask for a compressed body and decode it (downloads then cannot be continued).")
    var compressed = false

    @Option(
        name: .customLong("limit-rate"),
        help: ArgumentHelp(
            "Most bytes per second each transfer receives, or sends of a request body (K, M, G suffixes; 0: no limit).",
            valueName: "rate"),
        transform: ByteCount.parse)
    var limitRate: ByteCount?

    @Option(
        name: .customLong("limit-total-rate"),
        help: ArgumentHelp(
            "Most bytes per second all transfers together receive (K, M, G suffixes; 0: no limit).", valueName: "rate"),
        transform: ByteCount.parse)
    var limitTotalRate: ByteCount?

    /// `--limit-total-rate` in bytes per second, when there is a limit.
    var totalRateLimit: Int64? {
        limitTotalRate.flatMap { $0.bytes > 0 ? $0.bytes : nil }
    }

    func validate() throws {
        guard maxRedirects >= 0 else { throw ValidationError("--max-redirects must be 0 or more") }
        if location && noFollow { throw ValidationError("-L/--location and --no-follow ask for opposite things; give one") }
        for (name, seconds) in [
            ("--connect-timeout", connectTimeout), ("--stall-timeout", stallTimeout), ("--max-time", maxTime ?? 1),
        ]
        where !(seconds > 0 && seconds <= Self.longestTimeout) {
            throw ValidationError("\(name) must be more than 0 and at most \(Int(Self.longestTimeout)) seconds")
        }
        // Checked here, not only when the headers are built, so that a bad header = line of a
        // config file is named by its line.
        do {
            _ = try headers()
        } catch {
            throw ValidationError(error.message)
        }
        if let proxy {
            do {
                try ProxySettings.check(proxy)
            } catch {
                throw ValidationError("--proxy: \(error)")
            }
        }
        if let limitRate, limitRate.bytes > 0 && limitRate.bytes < 1024 {
            throw ValidationError("--limit-rate must be at least 1K, or 0 for no limit")
        }
        if let limitTotalRate, limitTotalRate.bytes > 0 && limitTotalRate.bytes < 1024 {
            throw ValidationError("--limit-total-rate must be at least 1K, or 0 for no limit")
        }
    }

    /// Eleven days and a half. A bound keeps a value such as `1e308` or `inf` (which Double
    /// reads) from overflowing libcurl's milliseconds.
    static let longestTimeout = 1_000_000.0

    /// The parsed `-H` headers; a malformed one is a usage error naming it.
    func headers() throws(TransferFailure) -> [HTTPHeader] {
        var parsed: [HTTPHeader] = []
        if let userAgent {
            // Checked as -H checks a header; sent after a redirect to another host too: it is no secret.
            let checked = try HTTPHeader.parse("User-Agent: \(userAgent)")
            parsed.append(HTTPHeader(name: checked.name, value: checked.value, scope: .everyHop))
        }
        for argument in header {
            parsed.append(try HTTPHeader.parse(argument))
        }
        return parsed
    }

    /// Everything that shapes a transfer: these options, credentials and cookies, and TLS.
    /// A bad pin or pin file is a usage failure naming it; an unusable netrc file or cookie jar a
    /// local file failure (exit 3).
    func transferOptions(
        auth: AuthOptions, tls: TLSOptions, retry: RetryOptions, remoteFiles: RemoteFileSettings = RemoteFileSettings()
    ) throws -> TransferOptions {
        var options = try auth.applied(to: transferOptions)
        options.remoteFiles = remoteFiles
        options.retriesRefusedConnections = retry.retryRefused
        options.maxTime = maxTime
        do {
            options.tls = try tls.settings()
        } catch {
            throw UsageFailure(message: error.message)
        }
        return options
    }

    var transferOptions: TransferOptions {
        var options = TransferOptions(
            redirects: RedirectPolicy(follow: !noFollow, maxRedirects: maxRedirects),
            connectTimeout: connectTimeout,
            stallTimeout: stallTimeout,
            verbose: verbose,
            limits: ResponseLimits(maxBodyBytes: maxSize?.bytes),
            decompresses: compressed,
            // 0 is no limit, as curl and wget read it.
            rateLimit: limitRate.flatMap { $0.bytes > 0 ? $0.bytes : nil })
        options.proxy = ProxySettings(url: proxy, bypass: noProxy)
        return options
    }
}

/// A byte count with an optional binary suffix: `1048576`, `512K`, `10M`, `2G`, `1.5M` (a
/// fraction, as wget takes it, rounded down to whole bytes).
struct ByteCount: Equatable {
    let bytes: Int64

    init(bytes: Int64) {
        self.bytes = bytes
    }

    init?(argument: String) {
        let multipliers: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(argument)
        var multiplier: Int64 = 1
        if let last = digits.last?.uppercased().first, let found = multipliers[last] {
            multiplier = found
            digits = digits.dropLast()
        }
        if let value = Int64(digits) {
            guard value >= 0, value <= Int64.max / multiplier else { return nil }
            bytes = value * multiplier
        } else {
            // Only plain decimals: Double would also read "nan", "inf" and "0x1p3".
            guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(digits),
                value * Double(multiplier) < 0x1p62
            else { return nil }
            bytes = Int64(value * Double(multiplier))
        }
    }

    /// As it would be typed: `1M` rather than `1048576`, for `--help`'s "(default: ...)".
    var typed: String {
        for (suffix, multiplier) in [("G", Int64(1) << 30), ("M", 1 << 20), ("K", 1 << 10)]
        where bytes >= multiplier && bytes % multiplier == 0 {
            return "\(bytes / multiplier)\(suffix)"
        }
        return String(bytes)
    }

    /// An option's value; when malformed, the error says what is accepted, which ArgumentParser
    /// adds to its "The value 'abc' is invalid for '--limit-rate <rate>'".
    static func parse(_ argument: String) throws(Malformed) -> ByteCount {
        guard let count = ByteCount(argument: argument) else { throw Malformed() }
        return count
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String { "expected a number of bytes with an optional K, M or G suffix, as in 512K or 1.5M" }
    }
}
