import AFGetSupport

/// The status line and headers of one response.
public struct ResponseHead: Sendable, Equatable {
    /// As the status line gives it: `HTTP/1.1`, `HTTP/2`.
    public var version: String
    public var status: Int
    public var reason: String
    /// Added to with `add` and `continueLastValue`, which keep what the fields say of the body
    /// (`announcedLength`, `contentEncodings`) up to date.
    public private(set) var headers: [(name: String, value: String)]
    /// Worked out as Content-Length fields arrive, not when asked: the engine, the body handler
    /// and the job each ask for every response of a batch, and working it out at each asking was
    /// 1 % of a list's CPU.
    private var announcedLength: AnnouncedLength
    /// The content codings applied to the body, in order (`identity` left out); worked out as
    /// Content-Encoding fields arrive, for the same reason.
    public private(set) var contentEncodings: [String]

    public init(
        version: String = "HTTP/1.1", status: Int = 0, reason: String = "",
        headers: [(name: String, value: String)] = []
    ) {
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers
        announcedLength = Self.announcedLength(in: headers)
        contentEncodings = Self.contentEncodings(in: headers)
    }

    /// A field, after those already there.
    public mutating func add(name: String, value: String) {
        headers.append((name, value))
        if name.isSameHeaderName(as: "Content-Length") {
            announcedLength = Self.announcedLength(in: headers)
        } else if name.isSameHeaderName(as: "Content-Encoding") {
            contentEncodings = Self.contentEncodings(in: headers)
        }
    }

    /// An obsolete line folding (RFC 9112 §5.2): `more` continues the last field's value, after
    /// a space.
    public mutating func continueLastValue(with more: String) {
        guard let last = headers.popLast() else { return }
        add(name: last.name, value: last.value + " " + more)
    }

    /// Room for `count` fields, so that a usual response's fields take one allocation.
    public mutating func reserveCapacity(_ count: Int) {
        headers.reserveCapacity(count)
    }

    /// The last value of a header, matched case-insensitively.
    public func value(of name: String) -> String? {
        headers.last { $0.name.isSameHeaderName(as: name) }?.value
    }

    /// The body's announced length; nil when there is none or `contentLengthProblem` says why
    /// it cannot be used.
    public var contentLength: Int64? {
        guard case .length(let length) = announcedLength else { return nil }
        return length
    }

    /// Why the Content-Length headers cannot be used: a value that is not a decimal count (or
    /// too large for one), or values that disagree. RFC 9112 §6.3 makes such a response
    /// unrecoverable: libcurl would take one of them, or none, and read on to a wrong length.
    public var contentLengthProblem: ResponseFailure? {
        guard case .unusable(let problem) = announcedLength else { return nil }
        return problem
    }

    public var isEncoded: Bool { !contentEncodings.isEmpty }

    public var isSuccess: Bool { (200..<300).contains(status) }
    public var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

    /// A redirect's Location, when it names somewhere: an empty one is no redirect to follow.
    public var redirectLocation: String? {
        guard isRedirect, let location = value(of: "Location"), !location.trimmingWhitespace().isEmpty else { return nil }
        return location
    }

    /// What the fields say of the body follows from them, so it is not compared.
    public static func == (lhs: ResponseHead, rhs: ResponseHead) -> Bool {
        lhs.version == rhs.version && lhs.status == rhs.status && lhs.reason == rhs.reason
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    private enum AnnouncedLength {
        case none
        case length(Int64)
        case unusable(ResponseFailure)
    }

    /// Every Content-Length header and comma-separated member, in one pass.
    private static func announcedLength(in headers: [(name: String, value: String)]) -> AnnouncedLength {
        var found: Int64?
        func agrees(_ count: Int64) -> Bool {
            if let found, found != count { return false }
            found = count
            return true
        }
        for header in headers where header.name.isSameHeaderName(as: "Content-Length") {
            // The usual value needs no splitting by Characters and trimming of each member,
            // which were most of the cost of a response's head.
            if let count = plainCount(header.value) {
                guard agrees(count) else { return conflicting(headers) }
                continue
            }
            for member in header.value.split(separator: ",", omittingEmptySubsequences: false) {
                let text = member.trimmingWhitespace()
                guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let count = Int64(text) else {
                    return .unusable(.malformedContentLength(text))
                }
                guard agrees(count) else { return conflicting(headers) }
            }
        }
        return found.map { .length($0) } ?? .none
    }

    /// The count a value of 1 to 18 decimal digits and nothing else gives (18 digits always fit
    /// an Int64); nil for any other value.
    private static func plainCount(_ value: String) -> Int64? {
        let digits = value.utf8
        guard (1...18).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) }
    }

    private static func conflicting(_ headers: [(name: String, value: String)]) -> AnnouncedLength {
        let values = headers.filter { $0.name.isSameHeaderName(as: "Content-Length") }.map(\.value)
        return .unusable(.conflictingContentLengths(values))
    }

    private static func contentEncodings(in headers: [(name: String, value: String)]) -> [String] {
        headers.filter { $0.name.isSameHeaderName(as: "Content-Encoding") }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingWhitespace().lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
    }
}
