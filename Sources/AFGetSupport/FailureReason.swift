/// What precisely went wrong, with its data, where afget knows more than the class: a batch
/// gives up on a host whose items keep failing the same way, a split download tells a changed
/// file from a server that mishandles ranges, and the report and JSON events carry the code and
/// the data so that a script can act on a failure without reading prose. A reason decides its
/// failure's class, and so the exit status (`failureClass`); the words stay its message.
public enum FailureReason: Sendable, Equatable {
    case unspecified
    /// The host's name did not resolve.
    case hostNotFound
    /// No connection could be made: refused, unreachable.
    case connectFailed
    /// No connection was made before the connect timeout.
    case connectTimeout
    /// Not tried: earlier items of its host failed the same way in a row (`HostSchedule`).
    case hostGivenUp(host: String)
    /// A final response with this status that is not the file (4xx, 5xx).
    case httpStatus(Int)
    /// The server (401) or the proxy (407) refused the credentials afget sent.
    case credentialsRefused(status: Int)
    /// The body passed `--max-size` (bytes).
    case tooLarge(limit: Int64)
    /// The item passed `--max-time`.
    case timeLimit
    /// No byte for `--stall-timeout` (or the speed limit's time).
    case stalled
    /// The body ended before its announced length.
    case bodyShort(received: Int64, expected: Int64)
    /// The server's file is not the one the part holds (another ETag, Last-Modified, length or
    /// coding): the part is of the old one.
    case entityChanged
    /// The finished file's digest is not the expected one.
    case checksumMismatch
    /// The file system (or the user's quota) has no room left.
    case noSpace
    /// An FTP or SFTP server has no file of that name (HTTP says so with a 404: `httpStatus`).
    case noSuchFile
    /// An FTP or SFTP server refused access to the file.
    case accessDenied
    /// An FTP or SSH server refused the login (HTTP says so with a 401).
    case loginRefused
    /// An FTP server turned the connection away before the login with 421 (service not
    /// available): it takes no more connections from this client (vsftpd `max_per_ip`,
    /// pyftpdlib `max_cons_per_ip`, pure-ftpd `-C`) or none at all for now. HTTP says so with a 503.
    case turnedAway

    /// The code the report and JSON events carry; nil for `.unspecified`.
    public var code: String? {
        switch self {
        case .unspecified: nil
        case .hostNotFound: "host-not-found"
        case .connectFailed: "connect-failed"
        case .connectTimeout: "connect-timeout"
        case .hostGivenUp: "host-given-up"
        case .httpStatus: "http-status"
        case .credentialsRefused: "credentials-refused"
        case .tooLarge: "too-large"
        case .timeLimit: "time-limit"
        case .stalled: "stalled"
        case .bodyShort: "body-short"
        case .entityChanged: "entity-changed"
        case .checksumMismatch: "checksum-mismatch"
        case .noSpace: "no-space"
        case .noSuchFile: "no-such-file"
        case .accessDenied: "access-denied"
        case .loginRefused: "login-refused"
        case .turnedAway: "turned-away"
        }
    }

    /// The reason's data, as JSON fields beside its code.
    public var fields: [(name: String, value: Int64)] {
        switch self {
        case .httpStatus(let status), .credentialsRefused(let status): [("status", Int64(status))]
        case .tooLarge(let limit): [("limit", limit)]
        case .bodyShort(let received, let expected): [("received", received), ("expected", expected)]
        default: []
        }
    }

    /// The class every failure of this reason has, and so its exit status; nil for
    /// `.unspecified`, whose failure's class is its own.
    public var failureClass: FailureClass? {
        switch self {
        case .unspecified: nil
        case .hostNotFound, .connectFailed, .connectTimeout, .hostGivenUp, .timeLimit, .stalled, .bodyShort, .turnedAway:
            .network
        // An FTP or SFTP server's refusal of a file exits as an HTTP status would (a 404, a 403).
        case .httpStatus, .noSuchFile, .accessDenied: .httpStatus
        case .credentialsRefused, .loginRefused: .authentication
        case .tooLarge: .protocolViolation
        case .entityChanged: .resumeConflict
        case .checksumMismatch: .checksumMismatch
        case .noSpace: .localFile
        }
    }

    /// A failure of the host rather than of the item: the next item of the same host would
    /// meet it too.
    public var isHostDown: Bool {
        switch self {
        case .hostNotFound, .connectFailed, .connectTimeout: true
        default: false
        }
    }

    /// How the host failed, in a few words, for the give-up notice and the summary.
    public var hostFailureWords: String {
        switch self {
        case .hostNotFound: "the host name did not resolve"
        case .connectFailed: "no connection could be made"
        case .connectTimeout: "the connection timed out"
        default: "failed"
        }
    }
}
