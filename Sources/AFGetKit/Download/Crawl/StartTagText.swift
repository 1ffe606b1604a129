import AFGetSupport
import CLibXML2

/// Where an attribute's value is in the bytes of a start tag that libxml2 has already read:
/// what `-k` needs to rewrite a link and leave every other byte as it was. libxml2 gives the
/// values, decoded, but not where they were; this finds each one again in the tag's own bytes
/// and keeps it only when its text, decoded as libxml2 decodes it (character references and
/// HTML 4's named entities), is the value libxml2 gave. So a tag this reads otherwise than
/// libxml2 (a value in a charset other than UTF-8, an attribute spelled twice in odd ways) has
/// its link left as it was rather than written over the wrong bytes.
enum StartTagText {
    /// An attribute as written: its name in lower case, the bytes of its value (between the
    /// quotes when it has some) and its quote.
    struct Attribute: Equatable {
        let name: String
        let range: Range<Int>
        let quote: UInt8?
    }

    /// The start tag of `element` that ends at `end` (where libxml2 stood as it told the
    /// element): the nearest `<element` before it, not before `earliest`.
    static func start(of element: String, before end: Int, notBefore earliest: Int, in bytes: [UInt8]) -> Int? {
        let name = Array(element.utf8)
        var index = min(end, bytes.count) - name.count - 1
        while index >= earliest {
            if bytes[index] == UInt8(ascii: "<"), index + name.count + 1 <= bytes.count,
                zip(bytes[(index + 1)...].prefix(name.count), name).allSatisfy({ lowered($0) == $1 })
            {
                let after = index + 1 + name.count
                if after == bytes.count || isBlank(bytes[after]) || bytes[after] == UInt8(ascii: "/")
                    || bytes[after] == UInt8(ascii: ">")
                {
                    return index
                }
            }
            index -= 1
        }
        return nil
    }

    /// The attributes of the tag whose bytes are `range` (from its `<`), the first of each name
    /// only, as HTML and libxml2 keep it.
    static func attributes(in bytes: [UInt8], _ range: Range<Int>) -> [Attribute] {
        var found: [Attribute] = []
        var index = range.lowerBound + 1
        let end = min(range.upperBound, bytes.count)
        // Past the element's name.
        while index < end, !isBlank(bytes[index]), bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">") {
            index += 1
        }
        while index < end {
            while index < end, isBlank(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
            guard index < end, bytes[index] != UInt8(ascii: ">") else { break }
            let nameStart = index
            index += 1
            while index < end, !isBlank(bytes[index]), !"/>=".utf8.contains(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[nameStart..<index].map(lowered), as: UTF8.self)
            while index < end, isBlank(bytes[index]) { index += 1 }
            guard index < end, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < end, isBlank(bytes[index]) { index += 1 }
            let attribute: Attribute
            if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                let quote = bytes[index]
                let valueStart = index + 1
                index = valueStart
                while index < end, bytes[index] != quote { index += 1 }
                attribute = Attribute(name: name, range: valueStart..<index, quote: quote)
                index += 1
            } else {
                let valueStart = index
                while index < end, !isBlank(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                attribute = Attribute(name: name, range: valueStart..<index, quote: nil)
            }
            if !found.contains(where: { $0.name == name }) { found.append(attribute) }
        }
        return found
    }

    /// An attribute's text with its character references decoded, as libxml2's HTML parser
    /// decodes them: `&#N;`, `&#xH;` and HTML 4's named entities; an unknown name, or one
    /// without its `;`, stays as written.
    static func decoded(_ text: ArraySlice<UInt8>) -> [UInt8] {
        decodedWithOrigins(text).bytes
    }

    /// The decoded text, and for each of its bytes (and its end) where in `text` the
    /// character it is part of starts: how a part of a decoded value is found in the page.
    static func decodedWithOrigins(_ text: ArraySlice<UInt8>) -> (bytes: [UInt8], origins: [Int]) {
        guard text.contains(UInt8(ascii: "&")) else { return (Array(text), Array(text.indices) + [text.endIndex]) }
        var result: [UInt8] = []
        var origins: [Int] = []
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == UInt8(ascii: "&"), let (scalar, next) = reference(in: text, at: index) else {
                result.append(text[index])
                origins.append(index)
                index += 1
                continue
            }
            let character = Array(String(Character(scalar)).utf8)
            result += character
            origins += Array(repeating: index, count: character.count)
            index = next
        }
        return (result, origins + [text.endIndex])
    }

    /// `text` written as an attribute's value within `quote` (or none): `&`, the quote and,
    /// unquoted, what would end the value as character references; beyond ASCII too, so that
    /// the value is the same in any charset the page is in.
    static func encoded(_ text: String, quote: UInt8?) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let ends =
                value == UInt32(quote ?? 0)
                || quote == nil
                    && (value <= 0x20 || "\"'=<>`".unicodeScalars.contains(scalar))
            if value == 0x26 {
                bytes += Array("&amp;".utf8)
            } else if value == 0x22 && ends {
                bytes += Array("&quot;".utf8)
            } else if value >= 0x80 || ends {
                bytes += Array("&#\(value);".utf8)
            } else {
                bytes.append(UInt8(value))
            }
        }
        return bytes
    }

    /// The character reference at `index` (its `&`) and the index after it.
    private static func reference(in text: ArraySlice<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        var cursor = index + 1
        if cursor < text.endIndex, text[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let isHex = cursor < text.endIndex && (text[cursor] | 0x20) == UInt8(ascii: "x")
            if isHex { cursor += 1 }
            var value: UInt32 = 0
            let digitsStart = cursor
            while cursor < text.endIndex, value < 0x110000 {
                let digit: UInt8? =
                    isHex ? hexDigitValue(text[cursor]) : (0x30...0x39).contains(text[cursor]) ? text[cursor] - 0x30 : nil
                guard let digit else { break }
                value = value * (isHex ? 16 : 10) + UInt32(digit)
                cursor += 1
            }
            guard cursor > digitsStart, let scalar = Unicode.Scalar(value) else { return nil }
            if cursor < text.endIndex, text[cursor] == UInt8(ascii: ";") { cursor += 1 }
            return (scalar, cursor)
        }
        let nameStart = cursor
        while cursor < text.endIndex, (0x30...0x39).contains(text[cursor]) || (0x61...0x7A).contains(text[cursor] | 0x20) {
            cursor += 1
        }
        guard cursor > nameStart, cursor < text.endIndex, text[cursor] == UInt8(ascii: ";") else { return nil }
        let name = Array(text[nameStart..<cursor]) + [0]
        guard let entity = htmlEntityLookup(name), let scalar = Unicode.Scalar(entity.pointee.value) else { return nil }
        return (scalar, cursor + 1)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
