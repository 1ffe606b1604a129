import AFGetSupport

/// The destinations a batch's items have claimed so far, a few bytes each (a hash of the file's
/// canonical name, a hash of what the item fetches, and where it came from), so that a list of
/// a million lines is checked for duplicates without holding its items (DESIGN.md §8).
struct DestinationClaims: Sendable {
    /// What became of an item's claim.
    enum Verdict {
        case new
        /// The same URL, checksum and headers into the same file as `earlier` ("FILE:LINE" or
        /// the URL): fetched once.
        case sameAs(earlier: String)
        /// `--on-conflict rename`: the item with its new name, and the line saying so.
        case renamed(DownloadItem, notice: String)
        case conflict(ItemFailure)
    }

    /// What becomes of a later item of another URL for a claimed file.
    private let onConflict: ConflictPolicy

    private var directories = BatchPlan.CanonicalDirectories()
    /// By the hash of the destination's canonical name, a `Claim` in 8 bytes: a list of a
    /// million lines from a pipe is checked in about 32 MiB. In 256 tables by the hash's top
    /// byte, so that growing one copies a 256th of them, not all at once.
    private var claimed = [[UInt64: UInt64]](repeating: [:], count: 256)
    /// The list's name, for "FILE:LINE"; command-line URLs are named by themselves, by index.
    private let listName: String?
    private let commandLineSources: [Int: String]

    /// What the claiming item fetches, and where it came from. Two different URLs share a
    /// 24-bit hash once in 16 million pairs, and would be taken for one; two items for one file
    /// are a mistake in the list to begin with.
    private struct Claim: Sendable {
        /// 24 bits of the URL's hash.
        let url: UInt32
        /// 8 bits of the hash of its checksum= and header= lines.
        let options: UInt32
        /// Its list line, or for a command-line URL its index among them, bits inverted.
        let origin: Int32

        init(url: UInt64, options: UInt64, origin: Int32) {
            self.url = UInt32(truncatingIfNeeded: url) & 0xFF_FFFF
            self.options = UInt32(truncatingIfNeeded: options) & 0xFF
            self.origin = origin
        }

        init(packed: UInt64) {
            url = UInt32(truncatingIfNeeded: packed >> 40)
            options = UInt32(truncatingIfNeeded: packed >> 32) & 0xFF
            origin = Int32(truncatingIfNeeded: packed)
        }

        var packed: UInt64 {
            UInt64(url) << 40 | UInt64(options) << 32 | UInt64(UInt32(bitPattern: origin))
        }
    }

    init(listName: String?, commandLineItems: [DownloadItem], onConflict: ConflictPolicy = .error) {
        self.listName = listName
        self.onConflict = onConflict
        commandLineSources = Dictionary(commandLineItems.map { ($0.index, $0.source) }) { first, _ in first }
    }

    /// The hash `item`'s destination is claimed by; nil for one written to standard output.
    mutating func key(of item: DownloadItem) -> UInt64? {
        item.plannedPath.map { key(ofPath: $0) }
    }

    /// The hash of the file at `path`, by whichever name it is given.
    mutating func key(ofPath path: String) -> UInt64 {
        StableHash.of(directories.key(of: path))
    }

    /// Claims `item`'s destination. `line` is its list line, nil for a command-line URL.
    /// `reserved` tells the names other items of the run will claim (a list's first pass knows
    /// them all): `--on-conflict rename` passes over them.
    mutating func claim(_ item: DownloadItem, line: Int?, reserved: (UInt64) -> Bool = { _ in false }) -> Verdict {
        guard let path = item.plannedPath else { return .new }
        let key = key(ofPath: path)
        let claim = Claim(
            url: StableHash.of(item.url), options: StableHash.of(item.checksum?.description ?? "", "\(item.headers)"),
            origin: Int32(truncatingIfNeeded: line ?? ~item.index))
        guard let earlier = claimed[Int(key >> 56)][key].map(Claim.init(packed:)) else {
            claimed[Int(key >> 56)][key] = claim.packed
            return .new
        }
        let earlierSource = source(of: earlier.origin)
        guard earlier.url == claim.url else {
            if onConflict == .rename {
                return renaming(item, from: path, claim: claim, earlier: earlierSource, reserved: reserved)
            }
            return .conflict(
                ItemFailure(
                    item: BatchPlan.normalized(path),
                    TransferFailure(.input(.sameDestination(earlier: earlierSource, later: item.source)))))
        }
        guard earlier.options == claim.options else {
            return .conflict(
                ItemFailure(
                    item: BatchPlan.normalized(path),
                    TransferFailure(.input(.sameDestinationOtherOptions(earlier: earlierSource, later: item.source)))))
        }
        return .sameAs(earlier: earlierSource)
    }

    /// `item` under the first `name.N.ext` beside `path` that no item of the run claims, or
    /// merged into the item of its own URL that claimed one before it (the same command run
    /// again names it alike).
    private mutating func renaming(
        _ item: DownloadItem, from path: String, claim: Claim, earlier claimant: String, reserved: (UInt64) -> Bool
    ) -> Verdict {
        let (directory, name) = splitPath(path)
        var number = 1
        while true {
            let candidate = joinPath(directory, FileNaming.numbered(name, number))
            let key = key(ofPath: candidate)
            number += 1
            if let earlier = claimed[Int(key >> 56)][key].map(Claim.init(packed:)) {
                guard earlier.url == claim.url, earlier.options == claim.options else { continue }
                return .sameAs(earlier: source(of: earlier.origin))
            }
            if reserved(key) { continue }
            claimed[Int(key >> 56)][key] = claim.packed
            let notice =
                "afget: \(item.source): saving as \(BatchPlan.normalized(candidate)), as \(claimant) writes \(BatchPlan.normalized(path))"
            return .renamed(item.renamed(to: candidate), notice: notice)
        }
    }

    /// The item that claimed `path`, as "FILE:LINE" or its URL.
    mutating func claimant(of path: String) -> String? {
        let key = key(ofPath: path)
        return claimed[Int(key >> 56)][key].map { source(of: Claim(packed: $0).origin) }
    }

    /// What is said of an item merged into an earlier identical one.
    static func mergeNotice(_ item: DownloadItem, earlier: String) -> String {
        "afget: \(item.source): same URL and destination as \(earlier); downloading it once"
    }

    private func source(of origin: Int32) -> String {
        origin < 0 ? commandLineSources[Int(~origin)] ?? "a URL on the command line" : "\(listName ?? "list"):\(origin)"
    }
}

/// FNV-1a over the parts' UTF-8 bytes, each ended by a zero byte: the same in every process and
/// on every machine, which `Hasher` is not (it is seeded per process). `--shard` depends on that.
enum StableHash {
    static func of(_ parts: String...) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            hash = (hash ^ 0) &* 0x100_0000_01b3
        }
        return hash
    }
}
