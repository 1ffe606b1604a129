/// Hides secrets in header lines shown with `--verbose`.
public enum HeaderMasking {
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// "Authorization: Basic dXNlcjpwYXNz" becomes "Authorization: Basic ***".
    public static func mask(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line }
        let name = line[..<colon]
        guard secretHeaders.contains(name.lowercased()) else { return line }
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        let authScheme = value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let keepsScheme = name.lowercased().hasSuffix("authorization") && value.contains(" ")
        return keepsScheme ? "\(name): \(authScheme) ***" : "\(name): ***"
    }
}
