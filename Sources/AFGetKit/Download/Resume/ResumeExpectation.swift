import AFGetRequest
import AFGetSupport
import CurlCore

/// What a download continuing from `offset` expects of the response to its ranged request,
/// checked on the curl thread before a byte of the body is written (DESIGN.md §5). Servers that
/// ignore `If-Range` exist (Twisted, some object stores): a 206 is appended only when every
/// validator it carries agrees with what was recorded, so two versions are never spliced.
public struct ResumeExpectation: Sendable, Equatable {
    /// Bytes already in the part file; the request asked for `bytes=offset-`, or up to `end`.
    public var offset: Int64
    /// Where the range asked for ends (exclusive), when it is bounded (`bytes=offset-(end-1)`).
    public var end: Int64?
    /// The entity's length as recorded when the download began, when known.
    public var expectedTotal: Int64?
    /// What identified the representation when the download began.
    public var recorded: EntityValidators
    /// A 200 (the whole entity) is taken from the start; otherwise it is refused unwritten.
    public var restartsOnFullResponse: Bool
    /// A 200 to a request from byte 0 is taken when it is the same file: `expectedTotal` bytes
    /// long, its validators agreeing (another source of the file, which has no ranges).
    public var takesTheSameFileWhole: Bool
    /// Another source of the file, whose answer fixed the length and Last-Modified `recorded`
    /// holds: a difference in those is this source disagreeing with that one.
    public var fixedBy: String?

    public init(
        offset: Int64, end: Int64? = nil, expectedTotal: Int64?, recorded: EntityValidators, restartsOnFullResponse: Bool,
        takesTheSameFileWhole: Bool = false, fixedBy: String? = nil
    ) {
        self.fixedBy = fixedBy
        self.offset = offset
        self.end = end
        self.expectedTotal = expectedTotal
        self.recorded = recorded
        self.restartsOnFullResponse = restartsOnFullResponse
        self.takesTheSameFileWhole = takesTheSameFileWhole
    }

    /// What a request for the whole file expects of a 206: the range from byte 0 to the end.
    static let wholeFile = ResumeExpectation(
        offset: 0, expectedTotal: nil, recorded: EntityValidators(),
        restartsOnFullResponse: true)

    /// How the body of a response may be used.
    public enum Verdict: Sendable, Equatable {
        /// A matching 206: append to the part file.
        case append
        /// A 200: the entity changed or ranges are unsupported; write it from the start.
        case restart
        /// The response is for another version of the file: nothing of it is written, and
        /// what the part holds belongs to the old one.
        case changed(ResumeFailure)
        /// An inconsistent answer to the range: nothing is written from this response.
        case refuse(ResumeFailure)
        /// Not a body to write (416, an HTTP error): the caller judges the status.
        case ignore
    }

    public func verdict(for head: ResponseHead) -> Verdict {
        switch head.status {
        case 206:
            if let change = recorded.change(in: head) ?? lengthChange(in: head) { return .changed(disagreement(change)) }
            if let problem = problem(with206: head) { return .refuse(problem) }
            return .append
        case 200:
            // A 200 is the whole entity; one carrying Content-Range claims to be a part as well.
            if let range = head.value(of: "Content-Range") {
                return .refuse(.wholeFileWithContentRange(range))
            }
            if restartsOnFullResponse { return .restart }
            if let change = recorded.change(in: head) { return .changed(disagreement(change)) }
            if takesTheSameFileWhole, offset == 0, let expectedTotal, head.contentLength == expectedTotal { return .restart }
            return .refuse(Self.reasonForFullResponse(head, recorded: recorded))
        default:
            return .ignore
        }
    }

    /// `change` as a disagreement with the source that fixed the file, when it is one: the
    /// ETag compared is always this source's own, so a new one is a change on this server.
    private func disagreement(_ change: ResumeFailure) -> ResumeFailure {
        switch change {
        case .lastModifiedChanged, .lengthChanged:
            fixedBy.map { .otherVersionThan(source: $0, because: change) } ?? change
        default: change
        }
    }

    /// Why a ranged request got the whole file: the file changed, or the server ignores ranges.
    public static func reasonForFullResponse(_ head: ResponseHead, recorded: EntityValidators) -> ResumeFailure {
        recorded.change(in: head) ?? .ignoresRanges
    }

    /// A 206 whose Content-Range gives another total is a part of another version of the file.
    private func lengthChange(in head: ResponseHead) -> ResumeFailure? {
        guard let expectedTotal, let total = head.value(of: "Content-Range").flatMap(ContentRange.init)?.total,
            total != expectedTotal
        else { return nil }
        return .lengthChanged(from: expectedTotal, to: total)
    }

    /// Why a 206 is not the range asked for, or nil.
    func problem(with206 head: ResponseHead) -> ResumeFailure? {
        guard let header = head.value(of: "Content-Range") else {
            return .noContentRange
        }
        guard let range = ContentRange(header), let first = range.first, let last = range.last,
            let total = range.total
        else {
            return .malformedContentRange(header)
        }
        // A bounded range ends where asked, or at the file's end when that comes first.
        let expectedLast = min(end ?? total, total) - 1
        guard first == offset, last == expectedLast else {
            if first == offset, let end {
                return .notTheRangeAsked(contentRange: header, first: offset, last: end - 1)
            }
            return .doesNotContinue(contentRange: header, at: offset)
        }
        if let length = head.contentLength, length != last - first + 1 {
            return .lengthDisagrees(contentLength: length, contentRange: header)
        }
        return nil
    }
}

extension EntityValidators {
    /// How `head` shows a different version of the file than these validators identify, or
    /// nil when every validator it carries agrees. A validator the response leaves out proves
    /// nothing either way. A part always holds an unencoded body (a coded one is never
    /// continued), so any content coding is another representation.
    func change(in head: ResponseHead) -> ResumeFailure? {
        if let entityTag, let current = head.value(of: "ETag"), !Self.sameEntityTag(entityTag, current) {
            return .entityTagChanged(from: entityTag, to: current)
        }
        if let lastModified, let current = head.value(of: "Last-Modified"), !Self.sameDate(lastModified, current) {
            return .lastModifiedChanged(from: lastModified, to: current)
        }
        if head.isEncoded {
            return .otherRepresentation(codings: head.contentEncodings.joined(separator: ", "))
        }
        return nil
    }

    private static func sameDate(_ recorded: String, _ current: String) -> Bool {
        guard let recordedAt = HTTPDate.seconds(from: recorded), let currentAt = HTTPDate.seconds(from: current) else {
            return recorded == current
        }
        return recordedAt == currentAt
    }
}
