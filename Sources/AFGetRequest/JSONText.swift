import AFGetSupport

/// JSON text to and from `Parameter`: a strict RFC 8259 parser that keeps member order and
/// number spelling, and a writer (compact for request bodies, indented for people).
public enum JSONText {
    public struct SyntaxError: Error, Sendable, Equatable {
        public let message: String
        public let offset: Int
    }

    /// Parses one JSON value (surrounding whitespace allowed).
    public static func parse(_ text: String) throws(SyntaxError) -> Parameter {
        try parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Parameter {
        var parser = JSONParser(bytes)
        let value = try parser.parseDocument()
        return value
    }

    /// Compact JSON, members in their order.
    public static func compact(_ value: Parameter) -> String {
        var output = ""
        write(value, to: &output, indent: nil, depth: 0, colors: nil)
        return output
    }

    /// Indented by four spaces, optionally coloured with ANSI escapes.
    public static func pretty(_ value: Parameter, colored: Bool) -> String {
        var output = ""
        write(value, to: &output, indent: "    ", depth: 0, colors: colored ? JSONColors() : nil)
        return output
    }

    private static func write(_ value: Parameter, to output: inout String, indent: String?, depth: Int, colors: JSONColors?) {
        func paint(_ text: String, _ color: String?) {
            if let colors, let color { output += color + text + colors.reset } else { output += text }
        }
        func newline(_ level: Int) {
            guard let indent else { return }
            output += "\n" + String(repeating: indent, count: level)
        }
        switch value {
        case .string(let string):
            paint(JSONLine.quoted(string), colors?.string)
        case .number(let text):
            paint(text, colors?.number)
        case .bool(let flag):
            paint(flag ? "true" : "false", colors?.literal)
        case .null:
            paint("null", colors?.literal)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(depth + 1)
                write(element, to: &output, indent: indent, depth: depth + 1, colors: colors)
            }
            newline(depth)
            output += "]"
        case .dictionary(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                newline(depth + 1)
                paint(JSONLine.quoted(member.key), colors?.key)
                output += indent == nil ? ":" : ": "
                write(member.value, to: &output, indent: indent, depth: depth + 1, colors: colors)
            }
            newline(depth)
            output += "}"
        }
    }
}

/// The colours of pretty-printed JSON on a terminal.
private struct JSONColors {
    let key = "\u{1B}[34m"
    let string = "\u{1B}[32m"
    let number = "\u{1B}[36m"
    let literal = "\u{1B}[35m"
    let reset = "\u{1B}[0m"
}

/// Recursive descent over UTF-8 bytes, with a depth limit so hostile input cannot exhaust the stack.
private struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    private static let maxDepth = 512

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONText.SyntaxError) -> Parameter {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected text after the value") }
        return value
    }

    private func error(_ message: String) -> JSONText.SyntaxError {
        JSONText.SyntaxError(message: message, offset: position)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func expect(_ literal: String) throws(JSONText.SyntaxError) {
        for byte in literal.utf8 {
            guard current == byte else { throw error("expected \(literal)") }
            position += 1
        }
    }

    private mutating func parseValue() throws(JSONText.SyntaxError) -> Parameter {
        guard let byte = current else { throw error("unexpected end of JSON") }
        switch byte {
        case UInt8(ascii: "{"):
            return try nested { (parser: inout JSONParser) throws(JSONText.SyntaxError) in try parser.parseObject() }
        case UInt8(ascii: "["):
            return try nested { (parser: inout JSONParser) throws(JSONText.SyntaxError) in try parser.parseArray() }
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func nested(_ body: (inout JSONParser) throws(JSONText.SyntaxError) -> Parameter)
        throws(JSONText.SyntaxError) -> Parameter
    {
        depth += 1
        guard depth <= Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels deep") }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func parseObject() throws(JSONText.SyntaxError) -> Parameter {
        position += 1
        var members: [Parameter.Member] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .dictionary(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            members.append(Parameter.Member(key, try parseValue()))
            skipWhitespace()
            if current == UInt8(ascii: ",") { position += 1; continue }
            try expect("}")
            return .dictionary(members)
        }
    }

    private mutating func parseArray() throws(JSONText.SyntaxError) -> Parameter {
        position += 1
        var elements: [Parameter] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") { position += 1; continue }
            try expect("]")
            return .array(elements)
        }
    }

    private mutating func parseNumber() throws(JSONText.SyntaxError) -> String {
        let start = position
        func digits() -> Int {
            let first = position
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position - first
        }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else if digits() == 0 {
            throw error("malformed number")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("malformed number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("malformed number") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONText.SyntaxError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flushRun() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard let byte = current else { throw error("unterminated string") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flushRun()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun()
                scalars.append(try parseEscape())
            case 0..<0x20:
                throw error("control character in a string")
            default:
                run.append(byte)
            }
        }
    }

    private mutating func parseEscape() throws(JSONText.SyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high), current == UInt8(ascii: "\\"),
                position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
            {
                position += 2
                let low = try parseHex4()
                if (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
                }
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            throw error("unknown escape in a string")
        }
    }

    private mutating func parseHex4() throws(JSONText.SyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
        else { throw error("malformed \\u escape") }
        position += 4
        return value
    }
}
