/// A server's answer that is not the file: a status, a refusal, a redirect not taken, a head or
/// a body afget cannot use. An FTP or SFTP server's refusal carries libcurl's words (`said`).
public enum ResponseFailure: Sendable, Equatable {
    /// A final response with this status that is not the file (4xx, 5xx), and its reason phrase.
    case httpStatus(Int, phrase: String)
    /// The server (401) or the proxy (407) refused the credentials afget sent.
    case credentialsRefused(status: Int, phrase: String)
    /// A redirect to `location` that `--no-follow` kept from being followed.
    case redirectNotFollowed(status: Int, phrase: String, location: String)
    /// A redirect without a Location to follow.
    case redirectWithoutLocation(status: Int, phrase: String)
    /// A final response that is neither the file, an error, nor a redirect (a 1xx, a 3xx).
    case unexpectedStatus(status: Int, phrase: String)
    /// `--accept-status`: a response outside the accepted statuses, which is an HTTP error
    /// whatever its status.
    indirect case statusNotAccepted(ResponseFailure)
    /// `--accept-type`: the response's media type ("" for none) is none of the accepted ones.
    case typeNotAccepted(type: String, accepted: [String])
    /// The server asked to retry after `seconds` (its Retry-After), longer than afget waits;
    /// `after` is the failure it answered with.
    indirect case waitTooLong(after: FailureReason, seconds: Int, retryAfter: String)
    /// More redirects than `--max-redirs`.
    case tooManyRedirects(limit: Int)
    /// A redirect to a scheme afget does not follow (`target` without its password).
    case redirectToScheme(String, target: String)
    /// A redirect to something that is not a URL.
    case redirectMalformed(target: String)
    /// A redirect from HTTPS down to HTTP.
    case redirectToHTTP(target: String)
    /// No status line: libcurl would take the reply for HTTP/0.9.
    case notHTTP
    /// A header line longer than afget takes (libcurl's own buffer).
    case headerLineTooLong(limit: Int)
    /// The response head is over afget's limits: lines, bytes per line, bytes in all.
    case headersTooLarge(lines: Int, lineBytes: Int, bytes: Int)
    /// A Content-Length that is not a decimal count, or values that disagree (RFC 9112 §6.3).
    case malformedContentLength(String)
    case conflictingContentLengths([String])
    /// A 206 or 200 that contradicts a request for the whole file: how it does.
    case notTheWholeFile(ResumeFailure)
    /// A content coding afget does not decode.
    case unknownEncoding(String)
    /// More content codings stacked than afget decodes.
    case tooManyEncodings(count: Int, limit: Int)
    /// A body its content coding cannot decode.
    case undecodable(DecodingProblem)
    /// The body passed `--max-size` (bytes).
    case tooLarge(limit: Int64)
    /// A response body kept in memory passed its limit (bytes).
    case bodyOverLimit(limit: Int)
    /// The body ended before its announced length; libcurl's words, where it said so.
    case bodyShort(received: Int64, expected: Int64, said: String? = nil)
    /// The body went past the file's announced length.
    case bodyLong(received: Int64, expected: Int64)
    /// A range of a split download ended before its end.
    case rangeShort
    /// An FTP or SFTP server has no file of that name (HTTP says so with a 404: `httpStatus`).
    case noSuchFile(said: String)
    /// An FTP or SFTP server refused access to the file.
    case accessDenied(said: String)
    /// An FTP server would not send the file.
    case fileNotSent(said: String)
    /// An FTP or SFTP server refused the upload.
    case uploadRefused(said: String)
    /// An FTP or SFTP server's disk is full.
    case serverDiskFull(said: String)
    /// An FTP or SFTP server already has a file of that name.
    case fileExists(said: String)
    /// An FTP or SSH server refused the login (HTTP says so with a 401).
    case loginRefused(said: String)
    /// An S3 store's answer to ListObjectsV2 that is no `<ListBucketResult>`.
    case notAListing
    /// An S3 store's answer to a multipart upload's request that lacks what it must hold
    /// (`expected`: `<UploadId>`, an ETag, `<ListPartsResult>`, ...).
    case storeAnswerUnusable(expected: String)
    /// An S3 store's error, its `<Code>` and `<Message>` as it wrote them.
    case storeError(status: Int, phrase: String, code: String, message: String)

    /// S3's SlowDown: the store asks for fewer requests to the bucket, seldom with Retry-After.
    public var asksToSlowDown: Bool {
        if case .storeError(_, _, "SlowDown", _) = self { return true }
        return false
    }

    var failureClass: FailureClass {
        switch self {
        case .bodyShort, .rangeShort: .network
        // An FTP or SFTP server's refusal of a file exits as an HTTP status would (a 404, a 403).
        case .httpStatus, .statusNotAccepted, .waitTooLong, .noSuchFile, .accessDenied, .fileNotSent, .uploadRefused,
            .serverDiskFull, .fileExists:
            .httpStatus
        case .credentialsRefused, .loginRefused: .authentication
        case .storeError(_, _, let code, _): Self.storeCredentialCodes.contains(code) ? .authentication : .httpStatus
        default: .protocolViolation
        }
    }

    var code: String {
        switch self {
        case .httpStatus: "http-status"
        case .credentialsRefused: "credentials-refused"
        case .redirectNotFollowed: "redirect-not-followed"
        case .redirectWithoutLocation: "redirect-without-location"
        case .unexpectedStatus: "unexpected-status"
        case .statusNotAccepted: "status-not-accepted"
        case .typeNotAccepted: "type-not-accepted"
        case .waitTooLong: "wait-too-long"
        case .tooManyRedirects: "too-many-redirects"
        case .redirectToScheme: "redirect-to-scheme"
        case .redirectMalformed: "redirect-malformed"
        case .redirectToHTTP: "redirect-to-http"
        case .notHTTP: "not-http"
        case .headerLineTooLong: "header-line-too-long"
        case .headersTooLarge: "headers-too-large"
        case .malformedContentLength, .conflictingContentLengths: "unusable-length"
        case .notTheWholeFile: "not-the-whole-file"
        case .unknownEncoding: "unknown-encoding"
        case .tooManyEncodings: "too-many-encodings"
        case .undecodable: "undecodable"
        case .tooLarge: "too-large"
        case .bodyOverLimit: "body-over-limit"
        case .bodyShort: "body-short"
        case .bodyLong: "body-long"
        case .rangeShort: "range-short"
        case .noSuchFile: "no-such-file"
        case .accessDenied: "access-denied"
        case .fileNotSent: "file-not-sent"
        case .uploadRefused: "upload-refused"
        case .serverDiskFull: "server-disk-full"
        case .fileExists: "file-exists"
        case .loginRefused: "login-refused"
        case .storeError: "store-error"
        case .notAListing: "not-a-listing"
        case .storeAnswerUnusable: "store-answer-unusable"
        }
    }

    var fields: [(name: String, value: Int64)] {
        switch self {
        case .httpStatus(let status, _), .credentialsRefused(let status, _), .redirectNotFollowed(let status, _, _),
            .storeError(let status, _, _, _),
            .redirectWithoutLocation(let status, _), .unexpectedStatus(let status, _):
            [("status", Int64(status))]
        case .statusNotAccepted(let refused): refused.fields
        case .waitTooLong(let after, let seconds, _): after.fields + [("wait", Int64(seconds))]
        case .tooManyRedirects(let limit), .headerLineTooLong(let limit), .bodyOverLimit(let limit): [("limit", Int64(limit))]
        case .tooManyEncodings(let count, let limit): [("count", Int64(count)), ("limit", Int64(limit))]
        case .tooLarge(let limit): [("limit", limit)]
        case .bodyShort(let received, let expected, _), .bodyLong(let received, let expected):
            [("received", received), ("expected", expected)]
        default: []
        }
    }

    var words: String {
        switch self {
        case .httpStatus(let status, let phrase):
            Self.statusLine(status, phrase)
        case .credentialsRefused(let status, let phrase):
            "\(Self.statusLine(status, phrase)): the credentials were refused"
        case .redirectNotFollowed(let status, let phrase, let location):
            "\(Self.statusLine(status, phrase)): redirect to \(location) not followed (--no-follow)"
        case .redirectWithoutLocation(let status, let phrase):
            "\(Self.statusLine(status, phrase)): a redirect without a Location to follow"
        case .unexpectedStatus(let status, let phrase):
            "unexpected final response \(Self.statusLine(status, phrase))"
        case .statusNotAccepted(let refused):
            refused.words
        case .typeNotAccepted(let type, let accepted):
            "unacceptable content type \"\(type.isEmpty ? "(none)" : type)\" (accepted: \(accepted.joined(separator: ", ")))"
        case .waitTooLong(let after, let seconds, let retryAfter):
            "\(after.words): the server asks to retry after \(seconds) s (Retry-After: \(retryAfter))"
        case .tooManyRedirects(let limit):
            "too many redirects (more than \(limit))"
        case .redirectToScheme(let scheme, let target):
            "refusing redirect to \(scheme): \(target)"
        case .redirectMalformed(let target):
            "redirect to a malformed URL: \(target)"
        case .redirectToHTTP(let target):
            "refusing redirect from HTTPS to HTTP: \(target)"
        case .notHTTP:
            "the reply is not an HTTP response (no status line)"
        case .headerLineTooLong(let limit):
            "a response header line is longer than \(limit / 1024) KiB (afget's limit)"
        case .headersTooLarge(let lines, let lineBytes, let bytes):
            "response headers exceed afget's limits "
                + "(\(lines) lines, \(lineBytes / 1024) KiB per line, \(bytes / 1024) KiB in all)"
        case .malformedContentLength(let text): "malformed Content-Length \"\(text)\""
        case .conflictingContentLengths(let values): "conflicting Content-Length values: \(values.joined(separator: ", "))"
        case .notTheWholeFile(.wholeFileWithContentRange(let range)):
            ResumeFailure.wholeFileWithContentRange(range).words
        case .notTheWholeFile(let problem): "a partial answer (206) to a request for the whole file: \(problem.words)"
        case .undecodable(let problem): problem.words
        case .unknownEncoding(let coding):
            "the body is encoded as \(coding), which afget does not decode"
        case .tooManyEncodings(let count, let limit):
            "\(count) content encodings stacked (afget decodes at most \(limit))"
        case .tooLarge(let limit):
            "the body is larger than --max-size (\(limit) bytes)"
        case .bodyOverLimit(let limit):
            "response body larger than \(limit) bytes"
        case .bodyShort(let received, let expected, let said):
            said ?? "the body ended early: \(received) of \(expected) bytes"
        case .bodyLong(let received, let expected):
            "the server sent more than the file's length (\(received) bytes of a \(expected)-byte file)"
        case .rangeShort:
            "the server closed a range early"
        case .noSuchFile(let said): "the server has no such file (\(said))"
        case .accessDenied(let said): "the server refused access to the file (\(said))"
        case .fileNotSent(let said): "the server would not send the file (\(said))"
        case .uploadRefused(let said): "the server refused the upload (\(said))"
        case .serverDiskFull(let said): "the server's disk is full (\(said))"
        case .fileExists(let said): "the server already has a file of that name (\(said))"
        case .loginRefused(let said): "the server refused the login (\(said))"
        case .notAListing: "the answer is no ListObjectsV2 listing (<ListBucketResult>)"
        case .storeAnswerUnusable(let expected): "the store's answer lacks \(expected)"
        case .storeError(let status, let phrase, let code, let message):
            "\(Self.statusLine(status, phrase)): \(code)\(message.isEmpty ? "" : " (\(message))")"
                + (Self.storeCredentialCodes.contains(code) ? Self.credentialHint(code) : "")
        }
    }

    /// An S3 store's codes for credentials it refused (exit 6, as a 401 after credentials).
    static let storeCredentialCodes: Set<String> = [
        "AccessDenied", "SignatureDoesNotMatch", "InvalidAccessKeyId", "ExpiredToken", "InvalidToken",
        "TokenRefreshRequired", "AllAccessDisabled",
    ]

    /// Where to look, by what the store refused.
    private static func credentialHint(_ code: String) -> String {
        switch code {
        case "SignatureDoesNotMatch": ": the secret key does not match the access key (or the region is wrong)"
        case "InvalidAccessKeyId": ": the store does not know this access key"
        case "ExpiredToken", "InvalidToken", "TokenRefreshRequired": ": the session token is no longer valid"
        default: ": the credentials given (or none: --no-sign-request) may not read this"
        }
    }

    /// "HTTP 404 Not Found", or "HTTP 404" without a reason phrase (HTTP/2 has none).
    private static func statusLine(_ status: Int, _ phrase: String) -> String {
        "HTTP \(status)\(phrase.isEmpty ? "" : " " + phrase)"
    }
}

/// Why a coded body cannot be decoded (`--compressed`).
public enum DecodingProblem: Sendable, Equatable {
    case cannotStart(coding: String)
    /// Bytes after the coded stream ended (gzip's members aside).
    case dataAfterEnd(coding: String)
    case notValid(coding: String)
    /// The body ended before its coded stream did.
    case truncated(coding: String)

    public var words: String {
        switch self {
        case .cannotStart(let coding): "cannot start decoding \(coding)"
        case .dataAfterEnd(let coding): "data after the end of the \(coding) stream"
        case .notValid(let coding): "the body is not valid \(coding)"
        case .truncated(let coding): "the \(coding) stream is truncated"
        }
    }
}
