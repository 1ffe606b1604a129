import AFGetProgress
import AFGetSupport

/// What `--report` says of one item (DESIGN.md §8).
public struct ItemRecord: Sendable {
    public var info: ItemInfo
    public var outcome: ItemOutcome = .stopped(.nothing)
    public var httpStatus: Int?
    /// The size of the file at `path` when it exists.
    public var bytes: Int64 = 0
    public var sha256: String?
    public var attempts = 0
    /// Bytes received in this run, also of an item that failed or was stopped.
    public var transferred: Int64 = 0
    /// What each source served, for an item with several (`MirrorSources`).
    public var sources: [ServedSource] = []
    /// The final response's Content-Type and URL (after redirects), kept only for a crawl
    /// (`DownloadSettings.keepsFinalResponse`), which reads pages by them; nil for an item that
    /// made no request (a file already there).
    public var contentType: String?
    public var finalURL: String?
    /// Why the item has no ending of its own: the run stopped first (a signal, or --fail-fast).
    public var stoppedEarly: EarlyStop?

    /// The report's error for an item the run stopped before it ended; its exit is the run's.
    public struct EarlyStop: Sendable {
        /// The error's class in the report.
        public enum Cause: String, Sendable {
            /// A signal stopped it, in the middle or before it started.
            case interrupted
            /// `--fail-fast` kept it from starting.
            case notStarted = "not started"
            /// `--fail-fast` stopped it in the middle.
            case failFast = "fail fast"
        }
        public let cause: Cause
        public let message: String
    }

    public init(info: ItemInfo) {
        self.info = info
    }

    init(info: ItemInfo, outcome: ItemOutcome) {
        self.info = info
        self.outcome = outcome
    }

    /// The record of an item found unusable before it could start (a bad list line, a bad
    /// resume file, a duplicate refused as it arrived).
    init(unusable failure: ItemFailure) {
        self.init(info: ItemInfo(id: -1, url: failure.url ?? "", path: failure.item), outcome: .failed(failure))
    }

    public var failure: ItemFailure? { outcome.failure }

    /// Stopped by a signal, before or after it started: counted under its own name.
    var wasInterrupted: Bool { stoppedEarly?.cause == .interrupted }

    /// The report's word for its outcome (DESIGN.md §8).
    var reportName: String {
        switch outcome {
        case .done: "downloaded"
        case .skipped: "skipped"
        case .failed: "failed"
        case .stopped: wasInterrupted ? "interrupted" : "failed"
        }
    }
}
