/// What precisely went wrong, where afget acts on more than the class: a batch gives up on a
/// host whose items keep failing the same way, and the report and JSON events carry the code so
/// that a script can tell one network failure from another without reading prose.
/// Most failures are still told by their class and words alone (`.unspecified`).
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

    /// The code the report and JSON events carry; nil for `.unspecified`.
    public var code: String? {
        switch self {
        case .unspecified: nil
        case .hostNotFound: "host-not-found"
        case .connectFailed: "connect-failed"
        case .connectTimeout: "connect-timeout"
        case .hostGivenUp: "host-given-up"
        }
    }

    /// A failure of the host rather than of the item: the next item of the same host would
    /// meet it too.
    public var isHostDown: Bool {
        switch self {
        case .hostNotFound, .connectFailed, .connectTimeout: true
        case .unspecified, .hostGivenUp: false
        }
    }

    /// How the host failed, in a few words, for the give-up notice and the summary.
    public var hostFailureWords: String {
        switch self {
        case .hostNotFound: "the host name did not resolve"
        case .connectFailed: "no connection could be made"
        case .connectTimeout: "the connection timed out"
        case .unspecified, .hostGivenUp: "failed"
        }
    }
}
