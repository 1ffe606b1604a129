/// Why an item was left as it is (its `skipped` event's reason, as scripts read it), and the
/// way on a person may want instead, said after it on their line.
public struct SkipReason: Sendable, Equatable, ExpressibleByStringInterpolation {
    public let words: String
    public let advice: Advice

    public enum Advice: Sendable, Equatable {
        /// " (see --on-exists)": the other things afget can do with a file that is there.
        case seeOnExists
        /// A file afget found there and did not check: it may be another tool's, cut short.
        /// Knowing would take a request per item, and re-running a batch must stay cheap, so
        /// the way on is said whatever its size: `-c` continues it, `--on-exists overwrite`
        /// replaces it.
        case continueOrReplace
        /// Nothing to do about it: a crawl's robots.txt the server does not have.
        case none
    }

    public init(_ words: String, advice: Advice = .seeOnExists) {
        self.words = words
        self.advice = advice
    }

    public init(stringLiteral words: String) {
        self.init(words)
    }

    /// The same reason with `more` said after its words ("… and matches its sha256 checksum").
    public func adding(_ more: String, advice: Advice) -> SkipReason {
        SkipReason(words + more, advice: advice)
    }
}
