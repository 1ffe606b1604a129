import AFGetRequest
import AFGetSupport

/// Splitting (`-s`) as the machine sees it: whether the file can still be split, whether an
/// attempt asks for a bounded first range, and why a response keeps the download on one
/// connection. The events that change it are the machine's (`DownloadMachine`, "Splitting");
/// the job says the notices and hands the task over.
extension DownloadMachine {
    /// Whether the file can still be split.
    enum Splitting: Equatable {
        /// `-s 1`: nothing is split, and nothing said about it.
        case notAsked
        /// Nothing showed yet that the file cannot be split: an attempt asks for a bounded
        /// first range, whose response may hand the download over to segments.
        case possible
        /// One connection for the rest of the job, for this reason (the first one found: how
        /// the download was asked for, a response, or a range answered wrongly).
        case refused(SplitRefusal)
    }

    /// Why a download asked to split (`-s`) goes on one connection; said unless it is what a
    /// person expects (a small file).
    struct SplitRefusal: Equatable {
        let text: String
        let isWorthSaying: Bool

        init(_ text: String, isWorthSaying: Bool = true) {
            self.text = text
            self.isWorthSaying = isWorthSaying
        }

        static let wholeFilesOnly = SplitRefusal("SCP cannot fetch part of a file (sftp:// can)")
        static let rangesIgnored = SplitRefusal("the server ignores ranges (it sent the whole file)")
        static let stream = SplitRefusal("standard output is written in order")
        static let conditional = SplitRefusal("the request is conditional (--on-exists update)")
        static let unknownLength = SplitRefusal("the length is unknown")
        static let noRanges = SplitRefusal("the server does not accept ranges")
        static let noValidator = SplitRefusal("no ETag or Last-Modified to check ranges against")
        static let tooSmall = SplitRefusal("too small to split", isWorthSaying: false)
    }

    /// What a response whose body starts means for splitting.
    enum SplitAction: Equatable {
        /// The body is taken on this connection; nothing to say.
        case goOn
        /// Ranges work: the attempt's task goes on as the first segment, segments take the rest.
        case handOver
        /// The body is taken on this connection, saying why (with `-v` only when it is not
        /// worth saying).
        case oneConnection(SplitRefusal)
    }

    /// The state a download starts in: refused from the start when how it was asked for
    /// cannot be split, whatever the server says.
    static func initialSplitting(_ rules: Rules) -> Splitting {
        guard rules.splits else { return .notAsked }
        return refusalByRequest(rules).map { .refused($0) } ?? .possible
    }

    /// Below this many bytes a file is not split: 4 segments of the minimum size.
    var smallestSplitFile: Int64 { 4 * max(1, rules.minimumSplitSize) }

    /// Where an attempt from `offset` asks its first range to end, when the file may still be
    /// split: no further than a split download's smallest file, so that a file too small to
    /// split comes whole and a larger one shows its length without anything asked for twice.
    func firstRangeEnd(from offset: Int64) -> Int64? {
        splitting == .possible ? offset + smallestSplitFile : nil
    }

    // MARK: Rules

    /// Why this response cannot be split, or nil when it can: a file is written (not standard
    /// output, in order), the length is known, ranges work, a validator guards every segment,
    /// and the file is large enough.
    func refusal(of head: ResponseHead, base: Int64, askedRange: Bool) -> SplitRefusal? {
        // A download refused by how it was asked for (SCP among them: FTP and SFTP ranges come
        // as 206 answers, RemoteFileAnswer; SCP has none) never asked a range.
        if askedRange && head.status == 200 { return .rangesIgnored }
        if let refusal = Self.refusalByRequest(rules) { return refusal }
        guard let total = expectedTotal else { return .unknownLength }
        guard head.status == 206 || head.value(of: "Accept-Ranges")?.lowercased().contains("bytes") == true else {
            return .noRanges
        }
        guard validators.ifRange != nil else { return .noValidator }
        guard total - base > smallestSplitFile else { return .tooSmall }
        return nil
    }

    /// Why how the download was asked for cannot be split (SCP, standard output, a
    /// conditional request), whatever the server says.
    static func refusalByRequest(_ rules: Rules) -> SplitRefusal? {
        if rules.fetchesWholeFilesOnly { return .wholeFilesOnly }
        if rules.stream != nil { return .stream }
        if rules.isConditional { return .conditional }
        return nil
    }
}
