/// What a download continuing from `offset` expects of the response to its ranged request,
/// checked on the curl thread before a byte of the body is written (DESIGN.md §5).
public struct ResumeExpectation: Sendable, Equatable {
    /// Bytes already in the part file; the request asked for `bytes=offset-`.
    public var offset: Int64
    /// The entity's length as recorded when the download began, when known.
    public var expectedTotal: Int64?
    /// The strong ETag recorded when the download began, when there was one.
    public var entityTag: String?
    /// A 200 (the whole entity) is taken from the start; otherwise it is refused unwritten.
    public var restartsOnFullResponse: Bool

    public init(offset: Int64, expectedTotal: Int64?, entityTag: String?, restartsOnFullResponse: Bool) {
        self.offset = offset
        self.expectedTotal = expectedTotal
        self.entityTag = entityTag
        self.restartsOnFullResponse = restartsOnFullResponse
    }

    /// What a request for the whole file expects of a 206: the range from byte 0 to the end.
    static let wholeFile = ResumeExpectation(offset: 0, expectedTotal: nil, entityTag: nil, restartsOnFullResponse: true)

    /// How the body of a response may be used.
    public enum Verdict: Sendable, Equatable {
        /// A matching 206: append to the part file.
        case append
        /// A 200: the entity changed or ranges are unsupported; write it from the start.
        case restart
        /// Anything else with a body to refuse: nothing is written from this response.
        case refuse(String)
        /// Not a body to write (416, an HTTP error): the caller judges the status.
        case ignore
    }

    public func verdict(for head: ResponseHead) -> Verdict {
        switch head.status {
        case 206:
            if let problem = problem(with206: head) { return .refuse(problem) }
            return .append
        case 200:
            return restartsOnFullResponse
                ? .restart
                : .refuse("the server sent the whole file (200) instead of the requested range")
        default:
            return .ignore
        }
    }

    private func problem(with206 head: ResponseHead) -> String? {
        guard let header = head.value(of: "Content-Range") else {
            return "206 response without Content-Range"
        }
        guard let range = ContentRange(header), let first = range.first, let last = range.last,
            let total = range.total
        else {
            return "malformed Content-Range \"\(header)\""
        }
        guard first == offset, last == total - 1 else {
            return "Content-Range \"\(header)\" does not continue at byte \(offset)"
        }
        if let expectedTotal, expectedTotal != total {
            return "the file's length changed from \(expectedTotal) to \(total) bytes"
        }
        if let entityTag, let current = head.value(of: "ETag"), current != entityTag {
            return "the file changed (ETag \(entityTag) became \(current))"
        }
        if let length = head.contentLength, length != last - first + 1 {
            return "Content-Length \(length) disagrees with Content-Range \"\(header)\""
        }
        return nil
    }
}
