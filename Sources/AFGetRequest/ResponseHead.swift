/// The status line and headers of one response.
public struct ResponseHead: Sendable, Equatable {
    /// As the status line gives it: `HTTP/1.1`, `HTTP/2`.
    public var version: String
    public var status: Int
    public var reason: String
    public var headers: [(name: String, value: String)]

    public init(
        version: String = "HTTP/1.1", status: Int = 0, reason: String = "",
        headers: [(name: String, value: String)] = []
    ) {
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers
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
    public var contentLengthProblem: String? {
        guard case .unusable(let problem) = announcedLength else { return nil }
        return problem
    }

    private enum AnnouncedLength {
        case none
        case length(Int64)
        case unusable(String)
    }

    /// Every Content-Length header and comma-separated member, in one pass: it is read for every
    /// response of a batch.
    private var announcedLength: AnnouncedLength {
        var found: Int64?
        for header in headers where header.name.isSameHeaderName(as: "Content-Length") {
            for member in header.value.split(separator: ",", omittingEmptySubsequences: false) {
                let text = member.trimmingWhitespace()
                guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let count = Int64(text) else {
                    return .unusable("malformed Content-Length \"\(text)\"")
                }
                if let found, found != count {
                    let values = headers.filter { $0.name.isSameHeaderName(as: "Content-Length") }.map(\.value)
                    return .unusable("conflicting Content-Length values: \(values.joined(separator: ", "))")
                }
                found = count
            }
        }
        return found.map { .length($0) } ?? .none
    }

    /// The content codings applied to the body, in order (`identity` left out).
    public var contentEncodings: [String] {
        headers.filter { $0.name.isSameHeaderName(as: "Content-Encoding") }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingWhitespace().lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
    }

    public var isEncoded: Bool { !contentEncodings.isEmpty }

    public var isSuccess: Bool { (200..<300).contains(status) }
    public var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

    /// A redirect's Location, when it names somewhere: an empty one is no redirect to follow.
    public var redirectLocation: String? {
        guard isRedirect, let location = value(of: "Location"), !location.trimmingWhitespace().isEmpty else { return nil }
        return location
    }

    public static func == (lhs: ResponseHead, rhs: ResponseHead) -> Bool {
        lhs.version == rhs.version && lhs.status == rhs.status && lhs.reason == rhs.reason
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}
