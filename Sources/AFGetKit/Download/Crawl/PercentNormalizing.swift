/// RFC 3986 §6.2.2: one spelling per path or query, so that `/a%7eb`, `/a%7Eb` and `/a~b` are
/// one URL to the crawl. An escape of an unreserved character is decoded, every other escape
/// written with upper-case hex digits, and a byte no URL may hold as it is (a space, a control
/// character, a byte of UTF-8, `"<>\^`{|}`, a `%` that starts no escape) escaped.
enum PercentNormalizing {
    static func normalized(_ component: String) -> String {
        let bytes = Array(component.utf8)
        // The usual component has nothing to change: kept without building a new string.
        if bytes.allSatisfy(isKeptAsIs) { return component }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                let decoded = high << 4 | low
                if isUnreserved(decoded) {
                    result.append(decoded)
                } else {
                    appendEscape(decoded, to: &result)
                }
                index += 3
                continue
            }
            if isKeptAsIs(byte) {
                result.append(byte)
            } else {
                appendEscape(byte, to: &result)
            }
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// ALPHA, DIGIT, `-`, `.`, `_`, `~`: an escape of one of these means the character itself.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Unreserved characters, sub-delimiters and `:@/?`: what a path or query holds unescaped.
    private static func isKeptAsIs(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default: return false
        }
    }

    private static func appendEscape(_ byte: UInt8, to result: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        result.append(UInt8(ascii: "%"))
        result.append(digits[Int(byte >> 4)])
        result.append(digits[Int(byte & 0xF)])
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
