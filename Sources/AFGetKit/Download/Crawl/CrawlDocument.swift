import AFGetSupport
import Glibc

/// A fetched file the crawl reads for links: only HTML (text/html, application/xhtml+xml) and
/// CSS (text/css), up to `largest` bytes. A file left by an earlier run has no response to
/// say its type: a `.css` name is a style sheet, and a file whose first bytes open an HTML
/// document is a page, whatever its name (`page.php?id=2`).
enum CrawlDocument {
    enum Kind: Equatable {
        case html, css
    }

    /// Larger documents are not read: no page, listing or style sheet people write is near it.
    static let largest: Int64 = 64 << 20

    /// What `contentType` says the file is; without one, what its name and first bytes say.
    static func kind(contentType: String?, path: String) -> Kind? {
        if let contentType {
            let type = contentType.prefix { $0 != ";" }.trimmingCharacters(in: " \t").lowercased()
            switch type {
            case "text/html", "application/xhtml+xml": return .html
            case "text/css": return .css
            default: return nil
            }
        }
        if path.lowercased().hasSuffix(".css") { return .css }
        return opensHTML(at: path) ? .html : nil
    }

    /// The `charset` parameter of a Content-Type.
    static func charset(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: " \t").lowercased() == "charset" else { continue }
            let value = pair[1].trimmingCharacters(in: " \t\"")
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The links of the file at `path`; nil when it cannot be read or is larger than `largest`.
    static func links(inFileAt path: String, kind: Kind, charset: String?) -> PageLinks? {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, Int64(status.st_size) <= largest else { return nil }
        switch kind {
        case .css:
            guard case .success(let bytes) = readAll(file, limit: Int(largest)) else { return nil }
            return PageLinks(
                links: CSSLinks.references(in: String(decoding: bytes, as: UTF8.self)).map { FoundLink($0, .requisite) })
        case .html:
            guard let read = htmlLinks(in: file, charset: charset) else { return nil }
            guard read.charsetFailed else { return read.links }
            // Bytes the page's charset cannot decode end libxml2's reading there, and the links
            // after them with it. Read again as Latin-1, which decodes every byte: links are
            // ASCII as a rule, and a non-ASCII one is read as wrongly as its page's bytes are.
            guard lseek(file, 0, SEEK_SET) == 0, let again = htmlLinks(in: file, charset: "ISO-8859-1") else {
                return read.links
            }
            return again.links
        }
    }

    /// The links of the HTML file open as `file`, read from where it is, and whether its charset
    /// failed to decode its bytes; nil when it cannot be read.
    private static func htmlLinks(in file: Int32, charset: String?) -> (links: PageLinks, charsetFailed: Bool)? {
        var failed = false
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { piece.deallocate() }
        let read = HTMLLinks.read(charset: charset) {
            let count = Glibc.read(file, piece.baseAddress, piece.count)
            if count < 0 { failed = true }
            return count > 0 ? Array(piece[0..<count]) : nil
        }
        return failed ? nil : read
    }

    /// The first bytes, past blanks and a byte order mark, open an HTML document.
    private static func opensHTML(at path: String) -> Bool {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var start = [UInt8](repeating: 0, count: 512)
        let count = start.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        var text = String(decoding: start[0..<count], as: UTF8.self).lowercased()
        text = String(text.drop { $0 == "\u{FEFF}" || $0.isWhitespace })
        return ["<!doctype html", "<html", "<head", "<title", "<body"].contains { text.hasPrefix($0) }
    }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// Without the given ASCII characters at either end. By bytes: asked of every Content-Type
    /// a crawl gets, where going by Characters (both ends, reversed) was 3.7 % of the crawl
    /// thread's time. The ends cut are ASCII, so the bytes left decode to the same text.
    func trimmingCharacters(in set: String) -> String {
        let unwanted = set.utf8
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !unwanted.contains($0) }),
            let last = bytes.lastIndex(where: { !unwanted.contains($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
