/// Who the user says they are to the server they named (`-u`, `--auth`, `--netrc`). Sent only
/// to the origin of the first request: a redirect to another origin goes without them.
public struct Credentials: Sendable, Equatable {
    public enum Scheme: String, Sendable, CaseIterable {
        case basic
        case digest
        /// Whatever the server offers, the most secure first (libcurl asks without credentials first).
        case any
    }

    public var user: String
    public var password: String
    public var scheme: Scheme

    public init(user: String, password: String, scheme: Scheme = .basic) {
        self.user = user
        self.password = password
        self.scheme = scheme
    }

    /// Parses `USER:PASS` (the password may contain colons; without one it is empty).
    public static func parse(_ argument: String, scheme: Scheme) -> Credentials {
        guard let colon = argument.firstIndex(of: ":") else {
            return Credentials(user: argument, password: "", scheme: scheme)
        }
        return Credentials(
            user: String(argument[..<colon]), password: String(argument[argument.index(after: colon)...]),
            scheme: scheme)
    }
}

/// Cookies sent and kept: `--cookie "a=b; c=d"` for the first origin, and a Netscape-format
/// jar file read before and written after the transfer (libcurl's cookie engine).
public struct CookieOptions: Sendable, Equatable {
    public var header: String?
    public var jar: String?

    public init(header: String? = nil, jar: String? = nil) {
        self.header = header
        self.jar = jar
    }
}
