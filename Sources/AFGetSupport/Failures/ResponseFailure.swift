/// A server's answer that is not the file.
public enum ResponseFailure: Sendable, Equatable {
    /// A final response with this status that is not the file (4xx, 5xx).
    case httpStatus(Int)
    /// The server (401) or the proxy (407) refused the credentials afget sent.
    case credentialsRefused(status: Int)
    /// The body passed `--max-size` (bytes).
    case tooLarge(limit: Int64)
    /// The body ended before its announced length.
    case bodyShort(received: Int64, expected: Int64)
    /// An FTP or SFTP server has no file of that name (HTTP says so with a 404: `httpStatus`).
    case noSuchFile
    /// An FTP or SFTP server refused access to the file.
    case accessDenied
    /// An FTP or SSH server refused the login (HTTP says so with a 401).
    case loginRefused

    var failureClass: FailureClass {
        switch self {
        case .bodyShort: .network
        // An FTP or SFTP server's refusal of a file exits as an HTTP status would (a 404, a 403).
        case .httpStatus, .noSuchFile, .accessDenied: .httpStatus
        case .credentialsRefused, .loginRefused: .authentication
        case .tooLarge: .protocolViolation
        }
    }

    var code: String {
        switch self {
        case .httpStatus: "http-status"
        case .credentialsRefused: "credentials-refused"
        case .tooLarge: "too-large"
        case .bodyShort: "body-short"
        case .noSuchFile: "no-such-file"
        case .accessDenied: "access-denied"
        case .loginRefused: "login-refused"
        }
    }

    var fields: [(name: String, value: Int64)] {
        switch self {
        case .httpStatus(let status), .credentialsRefused(let status): [("status", Int64(status))]
        case .tooLarge(let limit): [("limit", limit)]
        case .bodyShort(let received, let expected): [("received", received), ("expected", expected)]
        default: []
        }
    }

    var words: String { "" }
}
