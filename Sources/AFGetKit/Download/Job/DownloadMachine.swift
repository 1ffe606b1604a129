import AFGetRequest
import AFGetSupport
import Glibc

/// What a download does once an attempt has ended: the rules of finishing, continuing,
/// starting over and retrying (DESIGN.md §5 and §8), and of splitting (`-s`), as a value that
/// touches no file, socket or clock, so that every rule is a row of a table test
/// (DownloadMachineTests). The job (`DownloadJob`) tells it how each attempt ended, performs the
/// action it returns, and tells it what came of that; the machine keeps what the download knows
/// of the remote file, and whether it can still be split.
struct DownloadMachine {
    /// How the download was asked for: fixed for its life.
    struct Rules: Equatable {
        /// The stream written to (`-o -`: "standard output"), which cannot take back what it
        /// was given; nil for a file.
        var stream: String?
        /// `--on-exists update`: the request carries If-Modified-Since, and a 304 keeps the file
        /// (once the server's length is found to be `updatedSize` too, when that is given).
        var isConditional = false
        /// `--on-exists update`: the size of the file there.
        var updatedSize: Int64?
        /// `-s N` with N > 1.
        var splits = false
        /// `--min-split-size`: the smallest segment.
        var minimumSplitSize: Int64 = 1 << 20
        /// `scp://`: no part of a file can be asked for.
        var fetchesWholeFilesOnly = false
        /// `--no-restart`: a continue that turns out impossible fails (exit 9).
        var refusesRestart = false
        /// A 401 means the credentials sent were refused.
        var sendsCredentials = false
    }

    let rules: Rules
    /// The remote file's validators and length, as the latest response showed them.
    var validators: EntityValidators
    var expectedTotal: Int64?
    /// Why the body now arriving cannot be continued, said when it must be.
    var whyNotContinuable = Uncontinuable.noValidator
    /// Where the file's data reaches: the next attempt asks from here.
    private(set) var offset: Int64
    private(set) var restartsSoFar = 0
    /// Whether the file can still be split (`-s`).
    private(set) var splitting: Splitting
    /// Why the download stays on one connection was said (or, not worth saying, passed over).
    private(set) var saidOneConnection = false
    static let mostRestarts = 3

    init(rules: Rules, validators: EntityValidators = EntityValidators(), expectedTotal: Int64? = nil, offset: Int64 = 0) {
        self.rules = rules
        self.validators = validators
        self.expectedTotal = expectedTotal
        self.offset = offset
        splitting = Self.initialSplitting(rules)
    }

    enum Action: Equatable {
        /// The next attempt, from `offset`.
        case attempt
        /// `-s`: the next attempt, on one connection from `offset`, after saying why: a first
        /// range was answered with another, or the segments (`segmentsBegan`) could not go on.
        case fallBack(because: String, segmentsBegan: Bool)
        /// Wait as the retry loop says (a backoff, or Retry-After), then attempt again.
        case retry(TransferFailure, retryAfter: String?)
        /// Discard the part (truncate it, forget its resume data and validators), say why, and
        /// attempt again from zero.
        case startOver(because: ResumeFailure)
        /// A 416 without the file's length: ask the server (HEAD) whether the part of `size`
        /// bytes is the whole file, and tell `wholePart(confirmed:)`.
        case confirmWholePart(size: Int64)
        /// Every byte is in: verify and move into place. `wholePart`: a 416 said the part
        /// already held the whole file (`confirmedByHead`: one without the file's length, then
        /// a HEAD request).
        case finish(wholePart: Bool = false, confirmedByHead: Bool = false)
        /// `--on-exists update` and the server's copy is not newer.
        case keepAsNotModified
        /// `--on-exists update`, a 304: ask the server (HEAD) for its copy's length, which a
        /// 304 does not say reliably (servers send `Content-Length: 0`), and tell
        /// `unchangedLength(_:)`; the file there has `size` bytes.
        case confirmSameSize(size: Int64)
        /// `--on-exists update`: the server's copy is no newer, but `serverSize` bytes long, not
        /// `size`: say so, and attempt again without If-Modified-Since, replacing the file.
        case replaceOtherSize(size: Int64, serverSize: Int64)
        /// The item fails; `afterRetries`: say how many attempts it took.
        case fail(TransferFailure, afterRetries: Bool = true)
        /// The reader of the stream went away: the run ends quietly.
        case outputClosed
    }

    // MARK: Events

    /// The attempt's response arrived whole. `reached`: where the file's data reaches now;
    /// `size`: what the part file holds (for a stream, `reached`). `refusal`: what the
    /// response's body says of an error (an S3 store's), in place of its status alone.
    mutating func attemptCompleted(_ head: ResponseHead, reached: Int64, size: Int64, refusal: TransferFailure? = nil)
        -> Action
    {
        offset = reached
        if head.status == 304 && rules.isConditional {
            return rules.updatedSize.map { .confirmSameSize(size: $0) } ?? .keepAsNotModified
        }
        if head.isSuccess {
            guard let failure = lengthFailure(size: size) else { return .finish() }
            return retryOrFail(failure, response: nil)
        }
        let range = head.value(of: "Content-Range").flatMap(ContentRange.init)
        if head.status == 416 && reached == 0 && rules.splits && range?.total == 0 {
            // An empty file: nothing to split, and its first range is past its end.
            return .finish()
        }
        if head.status == 416 && reached > 0 { return after416(head, total: range?.total) }
        return retryOrFail(refusal ?? head.failure(sentCredentials: rules.sendsCredentials), response: head)
    }

    /// The attempt ended without a whole response; `reached`: where the file's data reaches.
    mutating func attemptFailed(_ failure: TransferFailure, reached: Int64) -> Action {
        offset = reached
        if failure.isClosedPipe && rules.stream != nil { return .outputClosed }
        if case .resume(let reason) = failure.reason { return startOver(because: reason) }
        return retryOrFail(failure, response: nil)
    }

    /// What the HEAD request asked for by `.confirmWholePart` found.
    mutating func wholePart(confirmed: Bool) -> Action {
        confirmed ? .finish(wholePart: true, confirmedByHead: true) : startOver(because: .cannotServeTheRest)
    }

    /// What the HEAD request asked for by `.confirmSameSize` found of the server's length (nil:
    /// nothing, it failed or said none): the file stays unless a length was said and differs.
    func unchangedLength(_ length: Int64?) -> Action {
        guard let size = rules.updatedSize, let length, length != size else { return .keepAsNotModified }
        return .replaceOtherSize(size: size, serverSize: length)
    }

    /// The part was started over (after `.startOver`): the file is new to the machine.
    mutating func startedOver() {
        restartsSoFar += 1
        validators = EntityValidators()
        expectedTotal = nil
        offset = 0
    }

    /// Why the download cannot start over for `reason` (refused, a stream, too many restarts,
    /// or a part that could not be discarded).
    func cannotStartOver(because reason: ResumeFailure) -> TransferFailure {
        refusedRestart(reason)
    }

    // MARK: Splitting (`-s`)

    /// A successful response's body starts (its validators and length already learnt), from
    /// `base` in the file; `askedRange`: its request asked for a first range, so a 200 shows
    /// ranges do not work whatever Accept-Ranges says.
    mutating func responseStarted(_ head: ResponseHead, base: Int64, askedRange: Bool) -> SplitAction {
        // Why the download stays on one connection is said once: a retry's response, or the
        // one connection after a fall-back, goes on without saying it again.
        guard splitting != .notAsked, !saidOneConnection else { return .goOn }
        if let refusal = refusal(of: head, base: base, askedRange: askedRange) {
            // The first reason stands: the state says why the file was not split.
            if splitting == .possible { splitting = .refused(refusal) }
            saidOneConnection = true
            return .oneConnection(refusal)
        }
        return askedRange && head.status == 206 ? .handOver : .goOn
    }

    /// A first range's request failed before its body started. A range answered with another
    /// (shorter, or of an unknown total) wrote nothing, and one connection fetches the file
    /// from `offset`; nil when the failure is not the split's (another version of the file
    /// starts over, as any attempt's).
    mutating func firstRangeFailed(_ failure: TransferFailure, from offset: Int64) -> Action? {
        guard failure.kind == .resumeConflict, !failure.entityChanged else { return nil }
        splitting = .refused(SplitRefusal(failure.message))
        saidOneConnection = true
        self.offset = offset
        return .fallBack(because: failure.message, segmentsBegan: false)
    }

    /// A first range's response arrived whole, `reached` being its `end`: when the file is
    /// longer (it could not be split), the next attempt goes on from there; nil when the
    /// response is judged as a whole (`attemptCompleted`).
    mutating func firstRangeCompleted(_ head: ResponseHead, reached: Int64, end: Int64) -> Action? {
        guard head.status == 206, reached == end, let expectedTotal, reached < expectedTotal else { return nil }
        offset = reached
        return .attempt
    }

    /// The segments could not go on (a server that mishandles ranges): one connection takes
    /// the rest from `contiguous`, the bytes held without a gap, and nothing is split again.
    mutating func segmentsFellBack(at contiguous: Int64, because reason: String) -> Action {
        splitting = .refused(SplitRefusal(reason))
        saidOneConnection = true
        offset = contiguous
        return .fallBack(because: reason, segmentsBegan: true)
    }

    // MARK: Rules

    /// A 416 to a range from `offset`: the part may already hold the whole file (said by the
    /// 416's total, or confirmed by a HEAD request when it has none), or the file changed or
    /// shrank, and the download starts over or fails.
    private mutating func after416(_ head: ResponseHead, total: Int64?) -> Action {
        if total == offset {
            // The part's length is the file's, but a 416 that shows another time is of another
            // file (an FTP or SFTP file replaced by one of the same size).
            if let change = validators.change(in: head) { return startOver(because: change) }
            return .finish(wholePart: true)
        }
        if total == nil, offset == expectedTotal, validators.ifRange != nil { return .confirmWholePart(size: offset) }
        if let total, total < offset {
            // Twisted's 416 for a file that shrank carries its new Last-Modified.
            if let change = validators.change(in: head) { return startOver(because: change) }
            return .fail(TransferFailure(.resume(.partLarger(part: offset, remote: total))), afterRetries: false)
        }
        return startOver(because: .cannotServeTheRest)
    }

    /// Starts over from zero unless `--no-restart`, a stream (what it was given stays given),
    /// or the file changed under every restart so far (a server that keeps rewriting it, or
    /// contradicts itself).
    private func startOver(because reason: ResumeFailure) -> Action {
        guard !rules.refusesRestart, rules.stream == nil, restartsSoFar < Self.mostRestarts else {
            return .fail(refusedRestart(reason), afterRetries: false)
        }
        return .startOver(because: reason)
    }

    private func refusedRestart(_ reason: ResumeFailure) -> TransferFailure {
        if let stream = rules.stream {
            return TransferFailure(.resume(.streamCannotGoOn(stream: stream, because: reason)))
        }
        if restartsSoFar >= Self.mostRestarts {
            return TransferFailure(.resume(.startedOverTooOften(because: reason, times: restartsSoFar)))
        }
        return TransferFailure(.resume(.restartRefused(because: reason)))
    }

    /// A transient failure is retried from where the data reaches; any other ends the item.
    private func retryOrFail(_ failure: TransferFailure, response head: ResponseHead?) -> Action {
        let problem = RetryLoop.transientProblem(
            response: head, failure: head == nil ? failure : nil, sentCredentials: rules.sendsCredentials)
        guard let problem else { return .fail(failure) }
        if let refusal = streamCannotGoOn(failure) { return .fail(refusal, afterRetries: false) }
        // The status decides the retry; the words stay those of the body when it said more (an
        // S3 store's SlowDown), and with them the host's hold.
        let said =
            failure.reason == problem.failure.reason
            ? problem.failure : TransferFailure(failure.reason, transient: problem.failure.isTransient)
        return .retry(said, retryAfter: problem.retryAfter)
    }

    /// A stream (`-o -`) cannot take back what it was given, so it is tried again only before
    /// its first byte, or from where it is by a range that the server's validator ties to the
    /// same file.
    private func streamCannotGoOn(_ failure: TransferFailure) -> TransferFailure? {
        guard let stream = rules.stream, offset > 0, validators.ifRange == nil else { return nil }
        return failure.noting(.alreadyWritten(bytes: offset, to: stream, why: whyNotContinuable), transient: false)
    }

    /// Whatever path the bytes took, the part must hold exactly the entity's length before it
    /// is moved into place: a body that ended early is continued, one that overran is worthless.
    private func lengthFailure(size: Int64) -> TransferFailure? {
        guard let expectedTotal else { return nil }
        if size < expectedTotal {
            return TransferFailure(.response(.bodyShort(received: size, expected: expectedTotal)), transient: true)
        }
        if size > expectedTotal {
            return TransferFailure(.response(.bodyLong(received: size, expected: expectedTotal)), discardsData: true)
        }
        return nil
    }
}
