import AFGetSupport

/// The URLs a style sheet loads: `url(...)` (quoted or not) and `@import "..."`, outside
/// comments and other strings, with CSS escapes decoded (CSS Syntax Level 3 §4.3). No CSS
/// parser is at hand in the system's libraries; these two tokens are all the crawl needs.
enum CSSLinks {
    /// A URL of a style sheet and where its text is: the bytes between its quotes, or of an
    /// unquoted `url()`'s argument without the blanks around it (what `-k` rewrites).
    struct Reference: Equatable {
        let value: String
        let range: Range<Int>
        /// The quote around it; nil in an unquoted `url()`.
        let quote: UInt8?
    }

    static func references(in text: String) -> [String] {
        spans(in: Array(text.utf8)).map(\.value)
    }

    /// The URLs of the style sheet `bytes`, where they are in it.
    static func spans(in bytes: [UInt8]) -> [Reference] {
        var scanner = Scanner(bytes: bytes)
        return scanner.references()
    }

    /// `value` written to stand where a reference stood: escaped for its quotes, or for an
    /// unquoted `url()`, whose blanks, quotes and parentheses would end it.
    static func escaped(_ value: String, quote: UInt8?) -> [UInt8] {
        var bytes: [UInt8] = []
        for byte in value.utf8 {
            let needsEscape =
                if let quote {
                    byte == quote || byte == UInt8(ascii: "\\")
                } else {
                    byte <= 0x20 || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
                        || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
                }
            if byte < 0x20 || byte == 0x7F {
                // A control character only as a hex escape, ended by a blank.
                bytes += Array("\\\(String(byte, radix: 16)) ".utf8)
            } else {
                if needsEscape { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
        }
        return bytes
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func references() -> [Reference] {
            var found: [Reference] = []
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                    skipComment()
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    _ = string()
                } else if byte == UInt8(ascii: "\\") {
                    index += 2
                } else if byte == UInt8(ascii: "@"), hasWord("@import") {
                    index += "@import".utf8.count
                    skipWhitespace()
                    if let quote = peek(0), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                        found.append(string())
                    }
                } else if (byte | 0x20) == UInt8(ascii: "u"), hasWord("url("), !followsNameCharacter() {
                    index += "url(".utf8.count
                    if let url = urlArgument() { found.append(url) }
                } else {
                    index += 1
                }
            }
            return found.filter { !$0.value.isEmpty }
        }

        private func peek(_ offset: Int) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        /// The word at `index`, in any ASCII case.
        private func hasWord(_ word: String) -> Bool {
            let word = Array(word.utf8)
            guard index + word.count <= bytes.count else { return false }
            return zip(bytes[index..<index + word.count], word).allSatisfy { lowered($0) == $1 }
        }

        private func lowered(_ byte: UInt8) -> UInt8 {
            (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
        }

        /// `url(` ends a longer name (`myurl(`): not the url token.
        private func followsNameCharacter() -> Bool {
            guard index > 0 else { return false }
            let before = bytes[index - 1]
            return before == UInt8(ascii: "-") || before == UInt8(ascii: "_") || before >= 0x80
                || (0x30...0x39).contains(before) || (0x61...0x7A).contains(lowered(before))
        }

        private mutating func skipComment() {
            index += 2
            while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) {
                index += 1
            }
            index += 2
        }

        private mutating func skipWhitespace() {
            while let byte = peek(0), isWhitespace(byte) { index += 1 }
        }

        private func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }

        /// A quoted string at `index`, its escapes decoded; `index` past its closing quote.
        private mutating func string() -> Reference {
            let quote = bytes[index]
            index += 1
            let start = index
            var value: [UInt8] = []
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "\\") {
                    index += 1
                    value += escaped()
                } else if bytes[index] == 0x0A {
                    break  // an unclosed string ends at the line's end
                } else {
                    value.append(bytes[index])
                    index += 1
                }
            }
            let end = min(index, bytes.count)
            index += 1
            return Reference(value: String(decoding: value, as: UTF8.self), range: start..<end, quote: quote)
        }

        /// The argument of `url(`, quoted or not; `index` past its `)`.
        private mutating func urlArgument() -> Reference? {
            skipWhitespace()
            guard let first = peek(0) else { return nil }
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                let value = string()
                skipWhitespace()
                if peek(0) == UInt8(ascii: ")") { index += 1 }
                return value
            }
            let start = index
            var end = index
            var value: [UInt8] = []
            while let byte = peek(0), byte != UInt8(ascii: ")") {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    value += escaped()
                } else {
                    value.append(byte)
                    index += 1
                }
                if !isWhitespace(byte) { end = index }
            }
            index += 1
            while let last = value.last, isWhitespace(last) { value.removeLast() }
            return Reference(value: String(decoding: value, as: UTF8.self), range: start..<end, quote: nil)
        }

        /// After a backslash: up to six hex digits and one blank, or the character itself.
        private mutating func escaped() -> [UInt8] {
            var digits = 0
            var scalar: UInt32 = 0
            while digits < 6, let byte = peek(0), let value = hexDigitValue(byte) {
                scalar = scalar << 4 | UInt32(value)
                digits += 1
                index += 1
            }
            guard digits > 0 else {
                guard let byte = peek(0) else { return [] }
                index += 1
                return byte == 0x0A ? [] : [byte]
            }
            if let byte = peek(0), isWhitespace(byte) { index += 1 }
            let character = Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}"
            return Array(String(character).utf8)
        }
    }
}
