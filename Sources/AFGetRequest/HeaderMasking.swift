/// Which headers may carry secrets: hidden in lines shown with `--verbose`, never written to
/// resume data.
public enum HeaderMasking {
    /// Parts of a header name that say it may carry a credential (X-Api-Key, X-Auth-Token,
    /// Private-Token, X-Session-Id, Cookie, Authorization, ...). A server's challenge
    /// (WWW-Authenticate) is not one, and `-v` shows it for debugging.
    private static let secretNameParts = [
        "authorization", "token", "key", "secret", "session", "password", "passwd",
        "signature", "credential", "cookie",
    ]

    /// The headers that carry credentials whichever way they go.
    private static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Whether a header of this name may hold a secret, by the look of its name: the user's own
    /// headers are judged so (what `-H` sends, what resume data keeps).
    public static func mayHoldSecret(_ name: some StringProtocol) -> Bool {
        let lowered = name.lowercased()
        return secretNameParts.contains { lowered.contains($0) }
    }

    /// "Authorization: Basic dXNlcjpwYXNz" becomes "Authorization: Basic ***". A line afget
    /// sends (`outgoing`) is masked when its name may hold a secret; a line the server sends only
    /// when it is Set-Cookie or another credential header: Access-Control-Allow-Credentials or
    /// X-Session-Timeout hold none, and `-v` is for seeing what the server said.
    public static func mask(_ line: String, outgoing: Bool) -> String {
        // FTP's login goes the same way as headers (`-v` shows the commands sent).
        if outgoing && line.hasPrefix("PASS ") { return "PASS ***" }
        guard let colon = line.firstIndex(of: ":") else { return line }
        let name = line[..<colon]
        guard outgoing ? mayHoldSecret(name) : credentialHeaders.contains(name.lowercased()) else { return line }
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        let authScheme = value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let keepsScheme = name.lowercased().hasSuffix("authorization") && value.contains(" ")
        return keepsScheme ? "\(name): \(authScheme) ***" : "\(name): ***"
    }
}
