/// A URL as afget shows and records it: a password in its user information is removed
/// ("https://user:pass@host/f" becomes "https://user@host/f"), so it never reaches a terminal,
/// a log, a report or resume data (DESIGN.md §5). The request itself still carries it.
public func removingPassword(from url: String) -> String {
    // Most URLs carry no user information at all: one byte scan instead of a search by characters.
    guard url.utf8.contains(UInt8(ascii: "@")) else { return url }
    guard let schemeEnd = url.firstRange(of: "://") else { return url }
    let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
    return String(url[..<colon]) + String(url[at...])
}

/// A line of text with the password of every URL in it removed, wherever the URL stands and
/// with or without its scheme: libcurl's own words quote the proxy it was given
/// ("Uses proxy env variable http_proxy == 'http://user:pass@host:3128'").
public func removingPasswords(inText text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
    // An optional scheme, the user, then ":password@" up to the last "@" before a space or a
    // quote: a password may hold "/" or "@" unescaped.
    guard let userinfo = try? Regex(#"((?:[A-Za-z][A-Za-z0-9+.-]*://)?[^\s'"/@:]*):[^\s'"]*@"#) else { return text }
    return text.replacing(userinfo) { match in "\(match.output[1].substring ?? "")@" }
}
