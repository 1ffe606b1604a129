/// A URL as afget shows and records it: a password in its user information is removed
/// ("https://user:pass@host/f" becomes "https://user@host/f"), so it never reaches a terminal,
/// a log, a report or resume data (DESIGN.md §5). The request itself still carries it.
public func removingPassword(from url: String) -> String {
    // Most URLs carry no user information at all: one byte scan.
    guard url.containsByte(UInt8(ascii: "@")) else { return url }
    // Bytes, not characters: "@" followed by a combining mark is one Character that is not "@",
    // and the password before it would be shown (found by the redirect fuzz target).
    let bytes = Array(url.utf8)
    guard let schemeEnd = bytes.firstRange(of: Array("://".utf8)) else { return url }
    let authority = bytes[schemeEnd.upperBound...].prefix { !"/?#".utf8.contains($0) }
    guard let at = authority.lastIndex(of: UInt8(ascii: "@")),
        let colon = authority[..<at].firstIndex(of: UInt8(ascii: ":"))
    else { return url }
    return String(decoding: bytes[..<colon] + bytes[at...], as: UTF8.self)
}

/// Whether `text` holds "://" (a URL rather than a path or a name), by bytes: String's own
/// search is generic, and took 1 % of the CPU of a list whose every line asked it.
public func holdsSchemeSeparator(_ text: String) -> Bool {
    text.withUTF8Bytes { bytes in
        var last: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            if byte == UInt8(ascii: "/") && last == (UInt8(ascii: ":"), UInt8(ascii: "/")) { return true }
            last = (last.1, byte)
        }
        return false
    }
}

/// A line of text with the password of every URL in it removed, wherever the URL stands and
/// with or without its scheme: libcurl's own words quote the proxy it was given
/// ("Uses proxy env variable http_proxy == 'http://user:pass@host:3128'").
public func removingPasswords(inText text: String) -> String {
    guard text.containsByte(UInt8(ascii: "@")) else { return text }
    // An optional scheme, the user, then ":password@" up to the last "@" before a space or a
    // quote: a password may hold "/" or "@" unescaped.
    // Matched by scalars: by characters, "@" followed by a combining mark is no "@".
    guard let userinfo = try? Regex(#"((?:[A-Za-z][A-Za-z0-9+.-]*://)?[^\s'"/@:]*):[^\s'"]*@"#) else { return text }
    let scalarWise = userinfo.matchingSemantics(.unicodeScalar)
    return text.replacing(scalarWise) { match in "\(match.output[1].substring ?? "")@" }
}
