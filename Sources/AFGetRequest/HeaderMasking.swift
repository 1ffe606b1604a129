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

    public static func mayHoldSecret(_ name: some StringProtocol) -> Bool {
        let lowered = name.lowercased()
        return secretNameParts.contains { lowered.contains($0) }
    }

    /// "Authorization: Basic dXNlcjpwYXNz" becomes "Authorization: Basic ***".
    public static func mask(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line }
        let name = line[..<colon]
        guard mayHoldSecret(name) else { return line }
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        let authScheme = value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let keepsScheme = name.lowercased().hasSuffix("authorization") && value.contains(" ")
        return keepsScheme ? "\(name): \(authScheme) ***" : "\(name): ***"
    }
}
