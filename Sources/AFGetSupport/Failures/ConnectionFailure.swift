/// A connection that could not be made or kept: the host, a proxy, TLS or SSH, a time limit.
/// libcurl's own words (`said`) are data: what it says of a failure no case of afget's names.
public enum ConnectionFailure: Sendable, Equatable {
    /// The host's name did not resolve.
    case hostNotFound(said: String)
    /// No connection could be made: refused, unreachable.
    case connectFailed(said: String)
    /// No connection was made before the connect timeout.
    case connectTimeout(said: String)
    /// The same, to a host that has not answered in this run: likely down or behind a firewall
    /// that drops what is sent to it, which is tried again only so often (`RetryPolicy`).
    case connectTimeoutOnFirstContact(said: String)
    /// Not tried: earlier items of its host failed the same way in a row (`HostSchedule`), as
    /// `after` says; `again` for an item that was tried before the host was given up.
    indirect case hostGivenUp(host: String, after: FailureReason, again: Bool)
    /// The item passed `--max-time`.
    case timeLimit(seconds: Double)
    /// No byte for `--stall-timeout` (or the speed limit's time) while `waiting` for it.
    case stalled(waiting: StalledPart, seconds: Double)
    /// An FTP server turned the connection away before the login with 421 (service not
    /// available): it takes no more connections from this client (vsftpd `max_per_ip`,
    /// pyftpdlib `max_cons_per_ip`, pure-ftpd `-C`) or none at all for now. HTTP says so with a 503.
    case turnedAway
    /// An SSH server closed the connection before its banner (sshd beyond `MaxStartups`).
    case sshSessionRefused(said: String)
    /// The proxy could not be reached.
    case proxyUnreachable(proxy: String, said: String)
    /// The proxy answered the tunnel's CONNECT with this status (not a 407).
    case proxyRefused(proxy: String, status: Int)
    /// The proxy refused the credentials in its URL (407).
    case proxyCredentialsRefused(proxy: String)
    /// The proxy asks for credentials its URL does not hold (407).
    case proxyCredentialsMissing(proxy: String)
    /// The TLS handshake with `host` failed, or the server refused the client with an alert after it.
    case tls(host: String, said: String, curlCode: Int32)
    /// `--pin-cert`: the server's certificate is none of the pinned ones.
    case certificateNotPinned(host: String)
    /// `--ssh-host-key-sha256`: the SSH server's host key is not the pinned one.
    case sshHostKeyNotPinned(host: String, fingerprint: String, pinned: String)
    /// known_hosts has another key for the SSH server.
    case sshHostKeyChanged(host: String, fingerprint: String, knownHosts: String)
    /// known_hosts has no key for the SSH server.
    case sshHostKeyUnknown(host: String, fingerprint: String, knownHosts: String)
    /// A libcurl failure no other case names, in libcurl's words. Its code decides its class
    /// (a reset connection, a malformed reply, a bad URL...), which the classifier that knows
    /// libcurl's codes (`CurlFailureClassifier.kind(of:)`) gives it.
    case curl(code: Int32, said: String, failureClass: FailureClass)

    /// What a stalled transfer was waiting for.
    public enum StalledPart: Sendable, Equatable {
        case requestBody
        case responseHeaders
        case data
    }

    var failureClass: FailureClass {
        switch self {
        case .tls, .certificateNotPinned, .sshHostKeyNotPinned, .sshHostKeyChanged, .sshHostKeyUnknown: .tls
        case .proxyCredentialsRefused: .authentication
        // As a 401 without credentials is an HTTP error.
        case .proxyCredentialsMissing: .httpStatus
        case .curl(_, _, let failureClass): failureClass
        default: .network
        }
    }

    var code: String {
        switch self {
        case .hostNotFound: "host-not-found"
        case .connectFailed: "connect-failed"
        case .connectTimeout, .connectTimeoutOnFirstContact: "connect-timeout"
        case .hostGivenUp: "host-given-up"
        case .timeLimit: "time-limit"
        case .stalled: "stalled"
        case .turnedAway: "turned-away"
        case .sshSessionRefused: "ssh-session-refused"
        case .proxyUnreachable: "proxy-unreachable"
        case .proxyRefused: "proxy-refused"
        case .proxyCredentialsRefused: "proxy-credentials-refused"
        case .proxyCredentialsMissing: "proxy-credentials-missing"
        case .tls: "tls"
        case .certificateNotPinned: "certificate-not-pinned"
        case .sshHostKeyNotPinned: "ssh-host-key-not-pinned"
        case .sshHostKeyChanged: "ssh-host-key-changed"
        case .sshHostKeyUnknown: "ssh-host-key-unknown"
        case .curl: "curl-error"
        }
    }

    var fields: [(name: String, value: Int64)] {
        switch self {
        case .proxyRefused(_, let status): [("status", Int64(status))]
        case .proxyCredentialsRefused, .proxyCredentialsMissing: [("status", 407)]
        case .tls(_, _, let code), .curl(let code, _, _): [("curl", Int64(code))]
        default: []
        }
    }

    var words: String {
        switch self {
        case .hostNotFound(let said), .connectFailed(let said), .connectTimeout(let said),
            .connectTimeoutOnFirstContact(let said), .curl(_, let said, _):
            said
        case .hostGivenUp(let host, let reason, let again):
            "not tried\(again ? " again" : ""): \(host) was given up for this run (\(reason.hostFailureWords))"
        case .timeLimit(let seconds):
            "took longer than --max-time (\(Self.shown(seconds)))"
        case .stalled(let part, let seconds):
            "stalled: \(part.words) \(Self.shown(seconds))"
        case .turnedAway:
            "the server turned the connection away (FTP 421: it takes no more connections for now)"
        case .sshSessionRefused(let said):
            "the SSH server closed the connection before a session began (\(said))"
        case .proxyUnreachable(let proxy, let said):
            "cannot reach the proxy \(proxy): \(said)"
        case .proxyRefused(let proxy, let status):
            "the proxy \(proxy) did not carry the request (HTTP \(status))"
        case .proxyCredentialsRefused(let proxy):
            "the proxy \(proxy) refused the credentials in the proxy URL (HTTP 407)"
        case .proxyCredentialsMissing(let proxy):
            "the proxy \(proxy) asks for credentials (HTTP 407); give them in the proxy URL: http://USER:PASSWORD@\(proxy)"
        case .tls(let host, let said, _):
            "TLS with \(host): \(said)"
        case .certificateNotPinned(let host):
            "TLS with \(host): the server's certificate is not the pinned one (--pin-cert mismatch)"
        case .sshHostKeyNotPinned(let host, let fingerprint, let pinned):
            "SSH with \(host): the host key \(fingerprint) is not the pinned one (--ssh-host-key-sha256 \(pinned))"
        case .sshHostKeyChanged(let host, let fingerprint, let file):
            "SSH with \(host): the host key changed: the server shows \(fingerprint), which is not the key \(file) "
                + "has for it; if the server's owner says it changed, remove the old one (ssh-keygen -R '\(host)')"
        case .sshHostKeyUnknown(let host, let fingerprint, let file):
            "SSH with \(host): unknown host key \(fingerprint) (not in \(file)); check it with the server's owner, "
                + "then add it (ssh-keyscan) or pin it with --ssh-host-key-sha256 \(fingerprint.dropFirst("SHA256:".count))"
        }
    }

    /// A limit in seconds as an option gave it: "30 s", "2.5 s".
    private static func shown(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// A failure of the host rather than of the item: the next item of the same host would
    /// meet it too.
    var isHostDown: Bool {
        switch self {
        case .hostNotFound, .connectFailed, .connectTimeout, .connectTimeoutOnFirstContact: true
        default: false
        }
    }

    /// How the host failed, in a few words, for the give-up notice and the summary.
    var hostFailureWords: String {
        switch self {
        case .hostNotFound: "the host name did not resolve"
        case .connectFailed: "no connection could be made"
        case .connectTimeout, .connectTimeoutOnFirstContact: "the connection timed out"
        default: "failed"
        }
    }
}

extension ConnectionFailure.StalledPart {
    var words: String {
        switch self {
        case .requestBody: "no body byte sent for"
        case .responseHeaders: "no complete response headers within"
        case .data: "no data received for"
        }
    }
}
