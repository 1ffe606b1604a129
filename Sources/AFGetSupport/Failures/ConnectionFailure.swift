/// A connection that could not be made or kept.
public enum ConnectionFailure: Sendable, Equatable {
    /// The host's name did not resolve.
    case hostNotFound
    /// No connection could be made: refused, unreachable.
    case connectFailed
    /// No connection was made before the connect timeout.
    case connectTimeout
    /// Not tried: earlier items of its host failed the same way in a row (`HostSchedule`).
    case hostGivenUp(host: String)
    /// The item passed `--max-time`.
    case timeLimit
    /// No byte for `--stall-timeout` (or the speed limit's time).
    case stalled
    /// An FTP server turned the connection away before the login with 421 (service not
    /// available): it takes no more connections from this client (vsftpd `max_per_ip`,
    /// pyftpdlib `max_cons_per_ip`, pure-ftpd `-C`) or none at all for now. HTTP says so with a 503.
    case turnedAway

    var failureClass: FailureClass { .network }

    var code: String {
        switch self {
        case .hostNotFound: "host-not-found"
        case .connectFailed: "connect-failed"
        case .connectTimeout: "connect-timeout"
        case .hostGivenUp: "host-given-up"
        case .timeLimit: "time-limit"
        case .stalled: "stalled"
        case .turnedAway: "turned-away"
        }
    }

    var words: String { "" }

    /// A failure of the host rather than of the item: the next item of the same host would
    /// meet it too.
    var isHostDown: Bool {
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
