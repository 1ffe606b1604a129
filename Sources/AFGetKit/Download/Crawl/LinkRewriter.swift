import AFGetSupport

/// What `-k` makes of one link of a page the crawl saved: a link to a file in place (the crawl
/// fetched it, or an earlier run did) becomes the relative path from the page to that file, as
/// a relative URL; any other http(s) link becomes absolute, resolved against the page's base.
/// A fragment stays on either. A link to a place in the page itself (`#top`, or nothing), or of
/// another scheme (`mailto:`, `data:`), is left as it was.
struct LinkRewriter {
    let layout: CrawlLayout
    /// The page's own file.
    let pagePath: String
    /// What the page's links are resolved against: its `<base href>`, else its URL.
    let base: CrawlURL
    /// Whether a file is in place at a path.
    let isInPlace: (String) -> Bool

    /// The link `reference` rewritten; nil when it stays as it is.
    func rewritten(_ reference: String) -> String? {
        let cleaned = CrawlURL.cleanedReference(reference)
        guard !cleaned.isEmpty, !cleaned.hasPrefix("#"), let url = CrawlURL.normalized(cleaned, base: base) else { return nil }
        let fragment = cleaned.firstIndex(of: "#").map { String(cleaned[$0...]) } ?? ""
        let target = layout.path(for: url)
        let written = (isInPlace(target) ? Self.relativeReference(from: pagePath, to: target) : url.text) + fragment
        return written == reference ? nil : written
    }

    /// What `<base href>` becomes: the page itself, so that the relative links written resolve
    /// from where the page is.
    var ownReference: String {
        Self.escaped(splitPath(pagePath).1)
    }

    /// The relative URL of the file `target` from the page `page`, both paths as the layout
    /// makes them (under one `-d`): `..` for each directory of the page's not shared, then the
    /// target's, each name percent-encoded.
    static func relativeReference(from page: String, to target: String) -> String {
        func components(_ path: String) -> [Substring] {
            path.split(separator: "/").filter { $0 != "." }
        }
        let pageFolders = components(page).dropLast()
        let targetComponents = components(target)
        var shared = 0
        while shared < pageFolders.count, shared < targetComponents.count - 1,
            pageFolders[pageFolders.startIndex + shared] == targetComponents[shared]
        {
            shared += 1
        }
        let ups = Array(repeating: "..", count: pageFolders.count - shared)
        return (ups + targetComponents[shared...].map { escaped(String($0)) }).joined(separator: "/")
    }

    /// A file's name as a path segment of a relative URL: every byte but the unreserved ones
    /// and a few sub-delimiters escaped, `?`, `#`, `%` and `:` among them, so that
    /// `page.php?id=2` names a file and not a query, and no name reads as a scheme.
    static func escaped(_ name: String) -> String {
        var bytes: [UInt8] = []
        for byte in name.utf8 {
            if PercentNormalizing.isUnreserved(byte) || "!$&+,;=@".utf8.contains(byte) {
                bytes.append(byte)
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
