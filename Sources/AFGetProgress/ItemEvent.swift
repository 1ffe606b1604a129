import AFGetSupport

/// What the renderers are told about items: the `--progress json` vocabulary (DESIGN.md §8).
public struct ItemInfo: Sendable, Equatable {
    /// Position in input order.
    public let id: Int
    public let url: String
    /// Where the data goes: a file path, or "-" for standard output.
    public let path: String

    public init(id: Int, url: String, path: String) {
        self.id = id
        self.url = url
        self.path = path
    }

    /// How every line names the item, running (its bar) or ended (done, status): where its
    /// data goes, as given or made from the URL ("sub/f.iso", or "(stdout)" for -o -).
    public var lineName: String {
        path == "-" ? "(stdout)" : path
    }

}

public enum ItemEvent: Sendable, Equatable {
    /// The batch has this many items in all, known before it starts (not for a list read from
    /// a pipe).
    case expecting(items: Int)
    /// An item is about to start.
    case queued(ItemInfo)
    /// The item's request has waited a while for its connection to `host` (host:port, or its
    /// proxy's), and still waits: a host that does not answer is shown as such, not as nothing.
    case connecting(ItemInfo, host: String)
    /// The connection the item waited for (`connecting`) was made.
    case connected(ItemInfo)
    /// The body is arriving; `offset` is where a continued download picks up.
    case started(ItemInfo, total: Int64?, offset: Int64?)
    case progress(ItemInfo, bytes: Int64, total: Int64?, speed: Double)
    /// `bytes` is the whole file; `transferred` what this run received of it (less when it
    /// continued an earlier run), which the speed is reckoned from.
    case done(ItemInfo, bytes: Int64, transferred: Int64, seconds: Double, sha256: String?)
    case skipped(ItemInfo, reason: SkipReason)
    /// Attempt `attempt` failed transiently; the next starts after `delay` seconds.
    case retrying(ItemInfo, attempt: Int, delay: Double, failure: TransferFailure)
    /// A continue was impossible; the download starts again from zero.
    case restarting(ItemInfo, because: ResumeFailure)
    case failed(ItemInfo, ItemFailure)
    /// One of an item's sources (a mirror, or its first URL) was dropped; the others go on.
    case sourceDropped(ItemInfo, source: String, reason: String)
    /// What each source of an item with several served, told as the item ends.
    case sourcesServed(ItemInfo, [ServedSource])
    /// A line people asked for (a `--verbose` header line): shown whatever the progress style.
    case notice(String)
    /// The run was stopped by a signal; `kept`: what its stopped items left for the next run.
    case interrupted(exitStatus: Int32, kept: KeptForNextRun)
    case summary(RunSummary)
}

extension ItemEvent {
    /// The item this event ends (done or failed), whose progress is no longer shown.
    var endedItem: ItemInfo? {
        switch self {
        case .done(let info, _, _, _, _), .failed(let info, _): info
        default: nil
        }
    }
}

/// Totals of a run, for the last line and the `summary` event.
/// A shard's part of a list (`--shard K/N`).
public struct ShardCount: Sendable, Equatable {
    /// "K/N".
    public let name: String
    public let taken: Int
    public let seen: Int

    public init(name: String, taken: Int, seen: Int) {
        (self.name, self.taken, self.seen) = (name, taken, seen)
    }
}

/// What a recursive download adds to its summary: pages read for links, pages whose links
/// `-k` rewrote (nil when it did not run), and links not followed, by the rule that refused
/// them (`CrawlSkip`'s names).
public struct CrawlCount: Sendable, Equatable {
    public let pagesRead: Int
    public let pagesConverted: Int?
    public let skippedByRule: [String: Int]

    public init(pagesRead: Int, pagesConverted: Int? = nil, skippedByRule: [String: Int]) {
        (self.pagesRead, self.pagesConverted, self.skippedByRule) = (pagesRead, pagesConverted, skippedByRule)
    }

    public var skippedTotal: Int { skippedByRule.values.reduce(0, +) }
}

public struct RunSummary: Sendable, Equatable {
    public var downloaded = 0
    public var skipped = 0
    public var failed = 0
    /// Items a signal stopped, or kept from starting: neither done nor failed.
    public var interrupted = 0
    /// Items another afget was downloading (exit 12): not failed, the other run has them.
    public var busy = 0
    /// With `--shard K/N`: the items this run took of those it saw.
    public var shard: ShardCount?
    /// A recursive download's own counts.
    public var crawl: CrawlCount?
    /// With `--checksums`: the sums file's name, and how many items it did not name (downloaded
    /// or skipped unchecked).
    public var sumsFile: String?
    public var notInSums = 0
    /// The first failed items in list order, "ITEM: reason", for the summary's list
    /// (`shownFailures` of them, whatever order the items failed in).
    public var firstFailures: [String] { shownFailureList.map(\.text) }
    private var shownFailureList: [ShownFailure] = []
    private struct ShownFailure: Sendable, Equatable {
        let order: Int
        let text: String
    }
    public static let shownFailures = 10

    /// Keeps a failed item for the summary's list if it is among the first in list order. The
    /// words are made only then: a list of 404s fails every item, and wording each was 1 % of
    /// its CPU (docs/performance.md).
    public mutating func noteFailure(_ text: @autoclosure () -> String, order: Int) {
        guard shownFailureList.count < Self.shownFailures || order < shownFailureList[shownFailureList.count - 1].order
        else { return }
        let place = shownFailureList.firstIndex { $0.order > order } ?? shownFailureList.count
        shownFailureList.insert(ShownFailure(order: order, text: text()), at: place)
        if shownFailureList.count > Self.shownFailures { shownFailureList.removeLast() }
    }
    public var bytes: Int64 = 0
    public var seconds = 0.0
    public var exitCode: Int32 = 0
    /// Items were sent, not fetched: `downloaded` counts uploads and is worded so.
    public var isUpload = false
    /// Hosts that asked the batch to wait or were given up (`--max-per-host`'s rules).
    public var hosts: [HostNote] = []

    public init() {}

    /// The summary's fields, as the `summary` event and the report's summary both carry them.
    package func describe(in line: inout JSONLine) {
        line.add(isUpload ? "uploaded" : "downloaded", downloaded)
        line.add("skipped", skipped)
        line.add("failed", failed)
        line.add("interrupted", interrupted)
        line.add("busy", busy)
        if let shard {
            line.add("shard", shard.name)
            line.add("shard_items", shard.taken)
            line.add("list_items", shard.seen)
        }
        if sumsFile != nil { line.add("not_in_checksums", notInSums) }
        if let crawl {
            line.add("pages", crawl.pagesRead)
            if let converted = crawl.pagesConverted { line.add("converted_pages", converted) }
            // The rules' names are CrawlSkip's fixed words: nothing in them to escape.
            let reasons = crawl.skippedByRule.keys.sorted().map { "\"\($0)\":\(crawl.skippedByRule[$0] ?? 0)" }
            line.addRaw("skipped_by_rule", "{" + reasons.joined(separator: ",") + "}")
        }
        line.add("bytes", bytes)
        line.add("seconds", seconds)
        line.add("exit", Int(exitCode))
        if !hosts.isEmpty { line.addRaw("hosts", "[" + hosts.map(\.json).joined(separator: ",") + "]") }
    }
}

/// What a batch's summary says of one host it held back (the host asked, with Retry-After) or
/// gave up on (its items kept failing the same way).
public struct HostNote: Sendable, Equatable {
    public let host: String
    /// Times the host asked the batch to wait.
    public let holds: Int
    /// Items set aside while the host was held.
    public let itemsHeld: Int
    /// Given up on, after this failure.
    public let givenUp: FailureReason?
    /// Items that failed untried once the host was given up.
    public let notTried: Int

    public init(host: String, holds: Int, itemsHeld: Int, givenUp: FailureReason?, notTried: Int) {
        self.host = host
        self.holds = holds
        self.itemsHeld = itemsHeld
        self.givenUp = givenUp
        self.notTried = notTried
    }

    var json: String {
        var line = JSONLine()
        line.add("host", host)
        line.add("holds", holds)
        line.add("items_held", itemsHeld)
        if let code = givenUp?.code { line.add("given_up", code) }
        line.add("not_tried", notTried)
        return line.text
    }
}

/// Draws progress and reports items. Renderers are driven from one task at a time.
public protocol ProgressRenderer: AnyObject {
    func handle(_ event: ItemEvent)
    /// Which events `handle` does anything with; the others need not reach it.
    var interest: @Sendable (ItemEvent) -> Bool { get }
    /// Writes `bytes` (output that shares the terminal with progress, such as an upload's
    /// response body) once `item`'s progress is finished; returns errno when it fails.
    func writeOutput(_ bytes: [UInt8], of item: ItemInfo, to output: OutputStream) -> Int32?
    /// Leaves the terminal clean: called once, at the end of the run.
    func finish()
    /// Holds what it writes until `releaseWrites`: the driver answers a pass's events between
    /// the two, and what they say goes out at once (`PassOutput`).
    func holdWrites()
    func releaseWrites()
}

extension ProgressRenderer {
    /// Renderers that draw frames of their own write as they draw.
    public func holdWrites() {}
    public func releaseWrites() {}

    /// Most renderers show every event.
    public var interest: @Sendable (ItemEvent) -> Bool { { _ in true } }

    /// Renderers that draw nothing live have nothing to wait for.
    public func writeOutput(_ bytes: [UInt8], of item: ItemInfo, to output: OutputStream) -> Int32? {
        output.write(bytes: bytes)
    }
}

/// One source of an item with several: how many bytes of the file it served in this run, and
/// why it was dropped, if it was.
public struct ServedSource: Sendable, Equatable {
    public let url: String
    public let bytes: Int64
    public let dropped: String?

    public init(url: String, bytes: Int64, dropped: String?) {
        self.url = url
        self.bytes = bytes
        self.dropped = dropped
    }
}
