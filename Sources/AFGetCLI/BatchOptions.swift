import AFGetSupport
import AFGetKit
import ArgumentParser
import Glibc

/// Lists of URLs and what each item must check (the download command).
struct BatchOptions: ParsableArguments {
    @Option(
        name: [.short, .customLong("input-file")],
        help: ArgumentHelp(
            "URLs to fetch, one per line with optional indented out=, dir=, checksum=, header= lines; \"-\" reads stdin.",
            valueName: "file"), completion: .file())
    var inputFile: String?

    @Option(
        name: .customLong("metalink"),
        help: ArgumentHelp(
            "Download every file a Metalink v4 document (a file, or a URL fetched first) describes, each checked against its strongest hash.",
            valueName: "file|url"), completion: .file())
    var metalink: String?

    @Option(
        name: .customLong("checksum"),
        help: ArgumentHelp(
            "Verify a single URL's file before it is moved into place: sha-256=HEX, sha-512=HEX, sha-1=HEX or md5=HEX.",
            valueName: "algo=hex"))
    var checksum: String?

    @Option(
        name: .customLong("mirror"),
        help: ArgumentHelp(
            "Another source of the single URL's file (repeatable): the sources share the work (with -s) or take over "
                + "from one another; one that serves another file, or fails, is dropped.",
            valueName: "url"))
    var mirrors: [String] = []

    @Option(
        name: .customLong("checksums"),
        help: ArgumentHelp(
            "A sums file (SHA256SUMS, MD5SUMS, BSD CHECKSUM) or its URL: each item it names, by its path under -d or "
                + "its name, is checked by it before it is moved into place.",
            valueName: "file|url"), completion: .file())
    var sumsFile: String?

    @Flag(
        name: .customLong("require-checksums"),
        help: "With --checksums: an item the sums file does not name fails (exit 10) instead of going unchecked.")
    var requiresChecksums = false

    @Option(
        name: .customLong("shard"),
        help: ArgumentHelp(
            "Take only the items whose destination hashes to K modulo N: N runs with K = 0 to N-1 share the work; "
                + "auto (or auto/N) takes K and N from a Slurm job array or a Kubernetes Indexed Job.",
            valueName: "k/n"))
    var shardText: String?

    /// The shard `--shard` names; nil without one (`validate` refuses one that names none).
    var shard: Shard? { try? resolvedShard() }

    private func resolvedShard() throws -> Shard? {
        guard let shardText else { return nil }
        if shardText == "auto" || shardText.hasPrefix("auto/") {
            let count = shardText == "auto" ? nil : Int(shardText.dropFirst("auto/".count))
            if shardText != "auto" && (count ?? 0) < 1 {
                throw ValidationError("--shard \(shardText): give auto/N with N of 1 or more")
            }
            do {
                return try Shard.fromEngine(count: count) { name in getenv(name).map { String(cString: $0) } }
            } catch {
                throw ValidationError("--shard \(shardText): \(error)")
            }
        }
        guard let shard = Shard(shardText) else {
            throw ValidationError(
                "--shard \(shardText): give K/N with N of 1 or more and K from 0 to N-1 (0/4, 1/4, 2/4, 3/4), or auto")
        }
        return shard
    }

    func validate() throws {
        if inputFile == "" { throw ValidationError("--input-file needs a file name (- reads standard input)") }
        if metalink == "" { throw ValidationError("--metalink needs a file name") }
        if sumsFile == "" { throw ValidationError("--checksums needs a file name or a URL") }
        if requiresChecksums && sumsFile == nil {
            throw ValidationError("--require-checksums needs --checksums FILE|URL to check items against")
        }
        _ = try resolvedShard()
    }

    func parsedChecksum() throws(TransferFailure) -> Checksum? {
        try checksum.map { text throws(TransferFailure) in try Checksum.parse(text) }
    }
}

/// How a run of several items goes: parallel transfers, stopping early, the report.
struct RunOptions: ParsableArguments {
    @Option(name: [.short, .customLong("jobs")], help: ArgumentHelp("Transfers at once.", valueName: "n"))
    var jobs = 4

    @Flag(name: .customLong("fail-fast"), help: "Start no more items after the first failure.")
    var failFast = false

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Write a JSON report of every item (url, path, outcome, HTTP status, bytes, sha256, attempts, error).",
            valueName: "file"), completion: .file())
    var report: String?

    @Option(
        name: [.short, .customLong("split")],
        help: ArgumentHelp(
            "Connections for one file: ranged requests in parallel once the server shows it can.", valueName: "n"))
    var split = 1

    // ArgumentParser shows no default for an option parsed by a transform: the help says it.
    @Option(
        name: .customLong("min-split-size"),
        help: ArgumentHelp(
            "Smallest piece a file is split into (K, M, G suffixes). (default: \(Self.defaultMinSplitSize.typed))",
            valueName: "bytes"),
        transform: ByteCount.parse)
    var minSplitSize = Self.defaultMinSplitSize

    static let defaultMinSplitSize = ByteCount(bytes: 1 << 20)

    @Option(
        name: .customLong("max-per-host"),
        help: ArgumentHelp(
            "Connections to one host at a time, segments included (default: no limit beyond -j and -s).",
            valueName: "n"))
    var maxPerHost: Int?

    @Flag(
        name: .customLong("no-host-give-up"),
        help: "Try every item of a host, also after \(HostRules.giveUpAfterDefault) of its items in a row found it down.")
    var noHostGiveUp = false

    /// The batch's rules per host.
    var hostRules: HostRules {
        HostRules(maxPerHost: maxPerHost, giveUpAfter: noHostGiveUp ? nil : HostRules.giveUpAfterDefault)
    }

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
        guard (1...64).contains(split) else { throw ValidationError("--split must be 1 to 64") }
        guard minSplitSize.bytes >= 16 << 10 else { throw ValidationError("--min-split-size must be 16K or more") }
        if let maxPerHost, maxPerHost < 1 { throw ValidationError("--max-per-host must be 1 or more") }
        if report == "" { throw ValidationError("--report needs a file name") }
    }
}
