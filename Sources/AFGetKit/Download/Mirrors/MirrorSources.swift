import AFGetProgress
import AFGetRequest
import AFGetSupport

/// The sources of one file: its URL and its mirrors (a list line's tab-separated URLs,
/// `--mirror`). Which source the next connection goes to (round-robin over those not dropped),
/// what each source's answer is checked against, and what each served. A value that touches no
/// socket: the job and its segments keep it and say what happened.
///
/// "The same file" without a checksum: the first answer fixes the entity (its length and
/// validators). Another source's answer is used only when it gives the same length
/// (Content-Range's total) and, where both give one, the same Last-Modified; its ETag is its
/// own (servers make them differently) and only has to stay what that source first said.
/// With a checksum known before the first byte the hash decides what the file is, not the
/// first answer: a source whose Last-Modified differs from the first one's is a candidate too,
/// held only to its own validators and the length, and the fault search after a failed
/// checksum finds whose bytes match (a stale mirror listed first does not decide the file).
struct MirrorSources {
    struct Source {
        /// As messages and reports show it: without a password.
        let url: String
        var request: HTTPRequest
        /// What this source said of the file in its first answer (its own ETag above all).
        var validators: EntityValidators?
        /// Bytes of the file it served in this run.
        var bytes: Int64 = 0
        /// Why it was dropped, once it was.
        var dropped: String?
    }

    private(set) var sources: [Source]
    /// The source whose answer fixed the entity, once one did.
    private(set) var entitySource: Int?
    private var turn = 0
    /// Which source wrote which bytes of the part file.
    private(set) var ranges = SourceRanges()
    /// A source suspected of a checksum's failure, whose bytes are being fetched from the
    /// others: no connection goes to it meanwhile.
    var setAside: Int?

    /// The file's checksum is known before its first byte: it, not the first answer, decides.
    let hashDecides: Bool

    /// `urls`: how each source is named (its request's URL when not given).
    init(_ requests: [HTTPRequest], urls: [String]? = nil, hashDecides: Bool = false) {
        let urls = urls ?? requests.map(\.url.absoluteString)
        sources = zip(urls, requests).map { Source(url: removingPassword(from: $0), request: $1) }
        self.hashDecides = hashDecides
    }

    /// More than one source: what they served is reported.
    var isMirrored: Bool { sources.count > 1 }

    func isDropped(_ index: Int) -> Bool { sources[index].dropped != nil }

    /// Not dropped, nor set aside: connections may go to it.
    private func isUsable(_ index: Int) -> Bool { sources[index].dropped == nil && index != setAside }

    var activeCount: Int { sources.indices.filter(isUsable).count }

    /// The sources connections may go to, by URL.
    var usable: [String] { sources.indices.filter(isUsable).map { sources[$0].url } }

    /// The source of this URL, if it is one of the file's.
    func index(of url: String) -> Int? { sources.firstIndex { $0.url == url } }

    /// The first source not dropped: where a single connection goes.
    var current: Int? { sources.indices.first(where: isUsable) }

    /// The source a new connection goes to: the sources not dropped in turn, other than
    /// `avoiding` (those that served a bad piece of the range it fetches again).
    mutating func nextForConnection(avoiding: Set<Int> = []) -> Int? {
        guard hasUsable(otherThan: avoiding) else { return nil }
        while !isUsable(turn % sources.count) || avoiding.contains(turn % sources.count) { turn += 1 }
        defer { turn += 1 }
        return turn % sources.count
    }

    /// Whether a source other than `these` may still take a connection.
    func hasUsable(otherThan these: Set<Int>) -> Bool {
        sources.indices.contains { isUsable($0) && !these.contains($0) }
    }

    /// The sources whose answers wrote the bytes of `range` (with one source, that one).
    func writers(of range: Range<Int64>) -> Set<Int> {
        guard isMirrored else { return [0] }
        return Set(ranges.sources(in: range).compactMap(index(of:)))
    }

    /// A connection to `index` was opened elsewhere (the first range, handed over): the next
    /// goes to the source after it.
    mutating func took(_ index: Int) {
        turn = index + 1
    }

    /// `index`'s answer is the first: it fixes the entity. Later calls keep the first.
    mutating func fixEntity(by index: Int) {
        if entitySource == nil { entitySource = index }
    }

    /// Whether `index`'s answers are checked as another source's, against the entity.
    func isMirror(_ index: Int) -> Bool {
        entitySource.map { $0 != index } ?? false
    }

    /// What `index`'s answer must agree with, the entity's validators being `entity`: the
    /// entity's own for the source that fixed it; for another, its own ETag (once it gave one)
    /// and the entity's Last-Modified (else, or when the hash decides, its own). Its `ifRange`
    /// is the request's If-Range.
    func expected(of index: Int, entity: EntityValidators) -> EntityValidators {
        guard isMirror(index) else { return entity }
        let own = sources[index].validators
        let modifiedBy = entity.lastModified == nil || hashDecides ? own : entity
        return EntityValidators(
            entityTag: own?.entityTag, lastModified: modifiedBy?.lastModified,
            lastModifiedIsStrong: modifiedBy?.lastModifiedIsStrong ?? true)
    }

    /// The source whose answer fixed the entity, when `index`'s answers are compared with it:
    /// a difference is then a disagreement between two sources, not a change on one server.
    func fixedBy(comparing index: Int) -> String? {
        isMirror(index) ? entitySource.map { sources[$0].url } : nil
    }

    /// `index` answered with a body that passed its checks: its own validators are kept the first time.
    mutating func answered(_ index: Int, validators: EntityValidators) {
        if sources[index].validators == nil { sources[index].validators = validators }
    }

    mutating func served(_ index: Int, bytes: Int64) {
        sources[index].bytes += max(0, bytes)
    }

    /// `index`'s answer wrote `range` of the part file. Kept for a file of several sources only:
    /// with one there is nobody else to suspect, and a batch of small files is spared the
    /// bookkeeping on every progress report.
    mutating func wrote(_ index: Int, _ range: Range<Int64>) {
        guard isMirrored else { return }
        ranges.record(sources[index].url, range)
    }

    /// The part file was cut to `length` bytes.
    mutating func truncated(to length: Int64) {
        ranges.truncate(to: length)
    }

    /// Who wrote what, as an earlier run recorded it (resume data), or, when it did not say,
    /// `held` as the first source's, which the file it holds is checked against.
    mutating func recorded(_ recorded: SourceRanges, held: [Range<Int64>]) {
        if recorded.runs.isEmpty {
            for range in held { ranges.record(sources[0].url, range) }
        } else {
            ranges = recorded
        }
    }

    /// `--on-exists update` found the file there of another length than the server's: every
    /// source is asked for the whole file, whatever its time.
    mutating func dropCondition() {
        for index in sources.indices {
            sources[index].request.headers.removeAll { $0.name.isSameHeaderName(as: "If-Modified-Since") }
        }
    }

    /// Drops `index` for `reason`; false when it was already dropped (said once).
    mutating func drop(_ index: Int, because reason: String) -> Bool {
        guard sources[index].dropped == nil else { return false }
        sources[index].dropped = reason
        return true
    }

    /// Whether a failure of a source's transfer is the source's (and dropping it could help):
    /// not this side's (the disk, a usage error), nor a checksum, which no one source is known for.
    static func isSourceFailure(_ failure: TransferFailure) -> Bool {
        switch failure.kind {
        case .network, .tls, .authentication, .protocolViolation, .httpStatus, .resumeConflict: true
        case .internalError, .usage, .localFile, .checksumMismatch, .destinationExists, .destinationBusy: false
        }
    }

    /// The failure of the item once every source is dropped: the last one's, saying so.
    static func allDropped(last failure: TransferFailure, count: Int) -> TransferFailure {
        failure.noting(.everySourceFailed(count: count), transient: false)
    }

    /// For reports and JSON progress.
    var served: [ServedSource] {
        sources.map { ServedSource(url: $0.url, bytes: $0.bytes, dropped: $0.dropped) }
    }
}
