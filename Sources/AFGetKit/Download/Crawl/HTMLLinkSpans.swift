import CLibXML2

/// Where a page's links are in its bytes, for `-k`: libxml2's HTML parser reads the page (the
/// same elements and attributes `HTMLLinks` follows), and as it tells each element the parser's
/// place in the original bytes (`xmlByteConsumed`, which counts bytes as they were before any
/// charset conversion) is the end of that start tag. The tag's own bytes are then read again
/// for where each value is (`StartTagText`), checked against the value libxml2 gave.
enum HTMLLinkSpans {
    /// What the bytes of a span hold.
    enum Meaning: Equatable {
        /// One URL (`href`, `src`, ...).
        case url
        /// `srcset`: URLs with their descriptors.
        case sourceSet
        /// A `style` attribute: CSS.
        case inlineStyle
        /// `<meta http-equiv="refresh">`'s `content`: a delay, then a URL.
        case refresh
        /// `<base href>`.
        case base
        /// The text of a `<style>` element: CSS as it is in the page, not an attribute.
        case styleSheet
    }

    struct Span: Equatable {
        let meaning: Meaning
        /// The bytes of the attribute's value (between its quotes), or of the style sheet.
        let range: Range<Int>
        let quote: UInt8?
        /// The attribute's value as libxml2 decoded it; empty for a style sheet.
        let value: String
    }

    /// The spans of the page `bytes`, in document order; `charset` as the response gave it.
    static func spans(in bytes: [UInt8], charset: String?) -> [Span] {
        let reader = Reader(bytes: bytes)
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
        guard let parser = HTMLPushParser.make(&handler, context: context, charset: charset) else { return [] }
        defer { htmlFreeParserCtxt(parser) }
        reader.parser = parser
        // The whole page in one piece: the parser's place is then one count from its start.
        _ = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { htmlParseChunk(parser, $0.baseAddress, Int32($0.count), 0) }
        }
        _ = htmlParseChunk(parser, nil, 0, 1)
        return withExtendedLifetime(reader) { reader.spans }
    }

    private final class Reader {
        let bytes: [UInt8]
        var parser: htmlParserCtxtPtr?
        var spans: [Span] = []
        /// Where the last start tag read ended: the next one is after it.
        private var lastTagEnd = 0
        /// Where the text of the `<style>` being read starts.
        private var styleStart: Int?

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        private var place: Int {
            parser.map { Int(xmlByteConsumed($0)) } ?? 0
        }

        func start(_ name: String, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
            var values: [String: String] = [:]
            var index = 0
            while let attributes, let key = attributes[index] {
                if let value = attributes[index + 1], values[String(cString: key)] == nil {
                    values[String(cString: key)] = String(cString: value)
                }
                index += 2
            }
            let wanted = Self.wanted(name, values)
            if name == "style" || !wanted.isEmpty {
                let end = place
                guard end >= lastTagEnd, end <= bytes.count,
                    let start = StartTagText.start(of: name, before: end, notBefore: lastTagEnd, in: bytes)
                else { return }
                lastTagEnd = end
                if name == "style" { styleStart = bytes[end...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } }
                let written = StartTagText.attributes(in: bytes, start..<end)
                var found: [Span] = []
                for (attribute, meaning) in wanted {
                    guard let value = values[attribute], let raw = written.first(where: { $0.name == attribute }),
                        StartTagText.decoded(bytes[raw.range]) == Array(value.utf8)
                    else { continue }
                    found.append(Span(meaning: meaning, range: raw.range, quote: raw.quote, value: value))
                }
                spans += found.sorted { $0.range.lowerBound < $1.range.lowerBound }
            }
        }

        func end(_ name: String) {
            guard name == "style", let start = styleStart else { return }
            styleStart = nil
            let end = min(place, bytes.count)
            guard start <= end else { return }
            // The style sheet ends where `</style` is: it cannot be in its text.
            let closing = Array("</style".utf8)
            var stop = end
            var index = end - closing.count
            while index >= start {
                if zip(bytes[index...].prefix(closing.count), closing).allSatisfy({ ($0 | 0x20) == ($1 | 0x20) }) {
                    stop = index
                    break
                }
                index -= 1
            }
            spans.append(Span(meaning: .styleSheet, range: start..<stop, quote: nil, value: ""))
        }

        /// The attributes of element `name` that hold links, and what each holds.
        private static func wanted(_ name: String, _ values: [String: String]) -> [(String, Meaning)] {
            var wanted = (HTMLLinks.linkAttributes[name] ?? []).map {
                ($0.attribute, $0.attribute == "srcset" ? Meaning.sourceSet : .url)
            }
            switch name {
            case "link": wanted.append(("href", .url))
            case "base": wanted.append(("href", .base))
            case "meta" where values["http-equiv"]?.lowercased() == "refresh": wanted.append(("content", .refresh))
            default: break
            }
            if values["style"] != nil { wanted.append(("style", .inlineStyle)) }
            return wanted
        }
    }
}
