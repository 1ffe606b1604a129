import CurlCore

/// A request as the task manager sends it: method, URL, headers and body source.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: CurlURL
    public var headers: [HTTPHeader]
    public var body: RequestBody
    /// An S3 store's request: signed by libcurl, for its first origin only.
    public var signing: S3Signing?

    public init(
        method: String = "GET", url: CurlURL, headers: [HTTPHeader] = [], body: RequestBody = .none,
        signing: S3Signing? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.signing = signing
    }

    /// The most the URL and header lines may come to. libcurl builds a request's head in a
    /// buffer of at most 1 MiB and fails a larger one as "Out of memory"; afget refuses such a
    /// request itself, keeping room for the headers libcurl adds (Host, User-Agent, Range,
    /// credentials, cookies).
    public static let largestURLAndHeaders = (1 << 20) - (16 << 10)

    /// Bytes of the URL and header lines, as they go into the request's head.
    var urlAndHeadersSize: Int {
        headers.reduce(url.absoluteString.utf8.count) { $0 + $1.line.utf8.count + 2 }
    }

    /// The same request for the bytes from `offset` on, up to `end` (exclusive; nil: to the
    /// end of the file), of the entity `ifRange` names only (a continue, or a segment; nil for a
    /// first request, which has nothing to name yet), unencoded: only a plain body is continued
    /// by ranges. One Accept-Encoding, replacing the user's: two would let the server pick either.
    package func ranged(from offset: Int64, to end: Int64? = nil, ifRange: String?) -> HTTPRequest {
        var request = self
        request.headers.removeAll { $0.name.isSameHeaderName(as: "Accept-Encoding") }
        let last = end.map { String($0 - 1) } ?? ""
        request.headers.append(HTTPHeader(name: "Range", value: "bytes=\(offset)-\(last)", scope: .everyHop))
        if let ifRange { request.headers.append(HTTPHeader(name: "If-Range", value: ifRange, scope: .everyHop)) }
        request.headers.append(HTTPHeader(name: "Accept-Encoding", value: "identity", scope: .everyHop))
        return request
    }
}

/// Where an upload's bytes come from. Files are read as the body is sent, never loaded whole.
public enum RequestBody: Sendable, Equatable {
    case none
    case bytes([UInt8])
    case file(path: String)
    /// Pieces sent one after another (a multipart form: boundaries and headers in memory,
    /// file contents from disk).
    case parts([BodyPart])
    /// Standard input, streamed with chunked transfer encoding; it can be sent only once.
    case standardInput

    /// Whether the body can be sent again from the start (for a retry or a redirect).
    public var isRepeatable: Bool {
        switch self {
        case .standardInput: false
        case .parts(let parts): !parts.contains(.standardInput)
        default: true
        }
    }
}

public enum BodyPart: Sendable, Equatable {
    case bytes([UInt8])
    case file(path: String)
    /// `length` bytes of a file from `offset` on: one part of an S3 multipart upload, read
    /// where it lies rather than copied out.
    case fileRange(path: String, offset: Int64, length: Int64)
    case standardInput
}
