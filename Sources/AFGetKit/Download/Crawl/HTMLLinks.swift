import CLibXML2

/// The links of an HTML document, read by libxml2's HTML parser as it goes (SAX, pushed a piece
/// at a time): no tree is built, so a listing of a hundred thousand files costs the memory of
/// one piece. The network is off; the document's charset is the response's when it gave one,
/// else what the document says (`<meta charset>`), as libxml2 finds it.
enum HTMLLinks {
    /// The links of the document whose bytes `pieces` hands out in order (nil at the end), and
    /// whether its charset failed on some of them (the links after those are not read).
    static func read(charset: String?, pieces: () -> [UInt8]?) -> (links: PageLinks, charsetFailed: Bool) {
        let reader = Reader()
        let context = Unmanaged.passUnretained(reader).toOpaque()
        var handler = htmlSAXHandler()
        handler.startElement = { context, name, attributes in
            guard let context, let name else { return }
            Unmanaged<Reader>.fromOpaque(context).takeUnretainedValue().start(String(cString: name), attributes)
        }
        handler.endElement = { context, name in
            guard let context, let name else { return }
            Unmanaged<Reader>.fromOpaque(context).takeUnretainedValue().end(String(cString: name))
        }
        handler.characters = { context, text, length in
            guard let context, let text else { return }
            Unmanaged<Reader>.fromOpaque(context).takeUnretainedValue().text(UnsafeBufferPointer(start: text, count: Int(length)))
        }
        // The contents of `<style>` and `<script>` come as character data.
        handler.cdataBlock = handler.characters
        guard let parser = HTMLPushParser.make(&handler, context: context, charset: charset) else {
            return (reader.found, false)
        }
        defer { htmlFreeParserCtxt(parser) }
        while let piece = pieces() {
            _ = piece.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { htmlParseChunk(parser, $0.baseAddress, Int32($0.count), 0) }
            }
        }
        _ = htmlParseChunk(parser, nil, 0, 1)
        // Bytes the charset cannot decode stop the parser, which keeps that error as its last.
        let charsetFailed = parser.pointee.errNo == Int32(XML_ERR_INVALID_ENCODING.rawValue)
        return withExtendedLifetime(reader) { (reader.found, charsetFailed) }
    }

    /// The links of a whole document in memory.
    static func read(_ bytes: [UInt8], charset: String? = nil) -> PageLinks {
        var given = false
        return read(charset: charset) {
            defer { given = true }
            return given ? nil : bytes
        }.links
    }

    /// What each element's attributes lead to.
    static let linkAttributes: [String: [(attribute: String, kind: LinkKind)]] = [
        "a": [("href", .page)], "area": [("href", .page)],
        "img": [("src", .requisite), ("srcset", .requisite)],
        "source": [("src", .requisite), ("srcset", .requisite)],
        "video": [("src", .requisite), ("poster", .requisite)], "audio": [("src", .requisite)],
        "track": [("src", .requisite)], "embed": [("src", .requisite)], "object": [("data", .requisite)],
        "input": [("src", .requisite)], "script": [("src", .requisite)],
        // A frame's document is part of the page that shows it; fetched, it is read in turn.
        "iframe": [("src", .requisite)], "frame": [("src", .requisite)],
        "body": [("background", .requisite)], "table": [("background", .requisite)],
        "td": [("background", .requisite)], "th": [("background", .requisite)],
    ]

    /// `<link rel>` values whose target the page needs in order to be shown.
    private static let requisiteRelations: Set<String> = [
        "stylesheet", "icon", "preload", "modulepreload", "manifest", "apple-touch-icon", "mask-icon",
    ]

    /// Title words autoindex listings begin with: Apache's, nginx's and lighttpd's, and
    /// python's http.server's.
    private static let listingTitles = ["Index of /", "Directory listing for /"]

    /// Caddy's listing (`file_server browse`) is titled with the directory's name alone; it is
    /// told by its footer's link to Caddy beside the links that sort it (`?sort=name&order=asc`),
    /// which a page merely crediting Caddy does not have.
    private static let caddyHome = "https://caddyserver.com"

    /// CSS in a `<style>` element is read up to this much; a page's own style is far smaller.
    private static let largestStyle = 1 << 20

    private final class Reader {
        var found = PageLinks()
        /// Inside `<title>`, whose first words tell a listing; inside `<style>`.
        private var title: [UInt8]?
        private var style: [UInt8]?
        /// What tells Caddy's listing (`caddyHome`): its link to Caddy, a link sorting itself.
        private var linksToCaddy = false
        private var sortsItself = false

        func start(_ name: String, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
            var values: [String: String] = [:]
            var index = 0
            while let attributes, let key = attributes[index] {
                // An attribute without a value (`<a href>`) has none to follow.
                if let value = attributes[index + 1] { values[String(cString: key)] = String(cString: value) }
                index += 2
            }
            for (attribute, kind) in linkAttributes[name] ?? [] {
                guard let value = values[attribute] else { continue }
                if attribute == "srcset" {
                    found.links += HTMLLinks.sourceSet(value).map { FoundLink($0, kind) }
                } else {
                    found.links.append(FoundLink(value, kind))
                }
            }
            switch name {
            case "a":
                guard let href = values["href"] else { break }
                linksToCaddy = linksToCaddy || href == HTMLLinks.caddyHome
                sortsItself = sortsItself || (href.hasPrefix("?sort=") && href.contains("&order="))
                found.isListing = found.isListing || (linksToCaddy && sortsItself)
            case "link":
                if let href = values["href"] {
                    let relations = Set((values["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
                    found.links.append(FoundLink(href, relations.isDisjoint(with: requisiteRelations) ? .page : .requisite))
                }
            case "base":
                if found.base == nil, let href = values["href"] { found.base = href }
            case "meta":
                meta(values)
            case "title":
                title = []
            case "style":
                style = []
            default:
                break
            }
            if let inline = values["style"] {
                found.links += CSSLinks.references(in: inline).map { FoundLink($0, .requisite) }
            }
        }

        private func meta(_ values: [String: String]) {
            if values["http-equiv"]?.lowercased() == "refresh", let content = values["content"],
                let target = HTMLLinks.refreshTarget(content)
            {
                found.links.append(FoundLink(target, .page))
            }
            if values["name"]?.lowercased() == "robots", let content = values["content"]?.lowercased() {
                let directives = content.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
                if directives.contains("nofollow") || directives.contains("none") { found.noFollow = true }
            }
        }

        func end(_ name: String) {
            switch name {
            case "title":
                if let title {
                    let words = String(decoding: title, as: UTF8.self).trimmingCharacters(in: " \t\r\n")
                    found.isListing = found.isListing || listingTitles.contains { words.hasPrefix($0) }
                }
                title = nil
            case "style":
                if let style {
                    found.links += CSSLinks.references(in: String(decoding: style, as: UTF8.self))
                        .map { FoundLink($0, .requisite) }
                }
                style = nil
            default:
                break
            }
        }

        func text(_ bytes: UnsafeBufferPointer<xmlChar>) {
            if title != nil, title!.count < 256 { title! += bytes }
            if style != nil, style!.count < largestStyle { style! += bytes }
        }
    }

    /// The URLs of a `srcset` (HTML §4.8.4.3.10): candidates separated by commas, each a URL
    /// and its descriptors (`2x`, `480w`); a URL may hold commas itself, but not end in one.
    static func sourceSet(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        return sourceSetRanges(bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// Where the URLs of the `srcset` value `bytes` are.
    static func sourceSetRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var urls: [Range<Int>] = []
        var index = 0
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        while index < bytes.count {
            while index < bytes.count, isBlank(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
            let start = index
            while index < bytes.count, !isBlank(bytes[index]) { index += 1 }
            var url = start..<index
            if bytes[url].last == UInt8(ascii: ",") {
                while bytes[url].last == UInt8(ascii: ",") { url = url.lowerBound..<url.upperBound - 1 }
            } else {
                // Descriptors up to the next comma outside parentheses.
                var depth = 0
                while index < bytes.count, !(depth == 0 && bytes[index] == UInt8(ascii: ",")) {
                    if bytes[index] == UInt8(ascii: "(") { depth += 1 }
                    if bytes[index] == UInt8(ascii: ")") { depth = max(0, depth - 1) }
                    index += 1
                }
            }
            if !url.isEmpty { urls.append(url) }
        }
        return urls
    }

    /// The URL of `<meta http-equiv="refresh" content="5; url=next.html">`; nil for a refresh
    /// of the page itself.
    static func refreshTarget(_ content: String) -> String? {
        refreshTargetRange(content).map { String(content[$0]) }
    }

    /// Where the URL of a refresh's `content` is in it.
    static func refreshTargetRange(_ content: String) -> Range<String.Index>? {
        guard let separator = content.firstIndex(where: { $0 == ";" || $0 == "," }) else { return nil }
        var rest = content[content.index(after: separator)...].drop { $0 == " " || $0 == "\t" }
        if rest.lowercased().hasPrefix("url") {
            let afterWord = rest.dropFirst(3).drop { $0 == " " || $0 == "\t" }
            if afterWord.first == "=" { rest = afterWord.dropFirst().drop { $0 == " " || $0 == "\t" } }
        }
        if let quote = rest.first, quote == "'" || quote == "\"" {
            rest = rest.dropFirst().prefix { $0 != quote }
        }
        let blanks: Set<Character> = [" ", "\t", "\r", "\n", "\r\n"]
        let target = rest.drop { blanks.contains($0) }
        var end = target.endIndex
        while end > target.startIndex, blanks.contains(target[target.index(before: end)]) { end = target.index(before: end) }
        return target.startIndex < end ? target.startIndex..<end : nil
    }
}
