import CurlCore

/// A URL as the crawl knows it: resolved and normalized once, so that every spelling of one
/// resource is one URL, fetched once per crawl (issue 54, point 3). libcurl's parser resolves
/// the reference against its page and removes dot segments; what it leaves as written is made
/// one spelling here: the fragment dropped, scheme and host in lower case, the default port
/// left out, escapes of unreserved characters decoded and the others in upper-case hex.
public struct CrawlURL: Sendable, Hashable, CustomStringConvertible {
    /// The normalized absolute URL: what is requested and what the key is made from.
    public let text: String
    public let scheme: String
    /// In lower case; an IPv6 address in brackets.
    public let host: String
    /// The port the URL names, or its scheme's default.
    public let port: Int
    /// Percent-encoded as normalized, starting with "/".
    public let path: String
    public let query: String?
    /// The URL's 64-bit hash: how the crawl remembers what it has seen in 8 bytes.
    public let key: UInt64

    public var description: String { text }

    /// `reference` (a link as a page writes it) resolved against `base` and normalized; nil for
    /// a link that names no resource afget crawls: another scheme (`mailto:`, `javascript:`,
    /// `data:`, `ftp:`), or one libcurl cannot parse.
    public static func normalized(_ reference: String, base: CrawlURL? = nil) -> CrawlURL? {
        let cleaned = cleanedReference(reference)
        // A link to this very document, or to a place in it.
        if let base, cleaned.isEmpty || cleaned.hasPrefix("#") { return base }
        guard let resolved = CurlURLParts(cleaned, relativeTo: base?.text),
            let scheme = resolved.get(.scheme), scheme == "http" || scheme == "https",
            let host = resolved.get(.host)
        else { return nil }
        // The URL written again in one spelling and read anew: libcurl 7.88 keeps the escapes
        // of a resolved reference as they were even when its path is set again, and it removes
        // dot segments (a decoded `%2E%2E` is one now) only as it reads a whole URL.
        var text = scheme + "://"
        if let user = resolved.get(.user) {
            text += user + (resolved.get(.password).map { ":" + $0 } ?? "") + "@"
        }
        text += asciiLowercased(host)
        if let port = resolved.get(.port), Int(port) != defaultPort(of: scheme) { text += ":" + port }
        text += PercentNormalizing.normalized(resolved.get(.path).flatMap { $0.isEmpty ? nil : $0 } ?? "/")
        if let query = resolved.get(.query) { text += "?" + PercentNormalizing.normalized(query) }
        guard let normalized = CurlURLParts(text), let text = normalized.url, let port = normalized.effectivePort,
            let host = normalized.get(.host)
        else { return nil }
        return CrawlURL(
            text: text, scheme: scheme, host: host, port: port, path: normalized.get(.path) ?? "/",
            query: normalized.get(.query))
    }

    private init(text: String, scheme: String, host: String, port: Int, path: String, query: String?) {
        self.text = text
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        key = StableHash.of(text)
    }

    /// The path's directory: everything up to its last "/" (`/a/b/` for `/a/b/c` and `/a/b/`).
    public var directory: Substring {
        path[...(path.lastIndex(of: "/") ?? path.startIndex)]
    }

    /// The host and, when it is not the scheme's default, its port: how wget names a host's
    /// directory, and what "the same host" compares.
    public var hostAndPort: String {
        port == Self.defaultPort(of: scheme) ? host : "\(host):\(port)"
    }

    static func defaultPort(of scheme: String) -> Int {
        scheme == "https" ? 443 : 80
    }

    /// HTML reads a URL attribute without its leading and trailing blanks and control
    /// characters, and with tabs and line breaks removed wherever they are; a space left inside
    /// is a `%20`, as browsers and wget send it.
    static func cleanedReference(_ reference: String) -> String {
        let bytes = reference.utf8
        guard bytes.contains(where: { $0 <= 0x20 }) else { return reference }
        let trimmed = bytes.drop { $0 <= 0x20 }.reversed().drop { $0 <= 0x20 }.reversed()
        var result: [UInt8] = []
        for byte in trimmed where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if byte == 0x20 {
                result += Array("%20".utf8)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Host names compare without regard to ASCII case (RFC 3986 §6.2.2.1); other bytes of an
    /// international name are left as they are.
    private static func asciiLowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return text }
        return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
