import AFGetSupport

/// One request header, and whether it may follow a redirect to another origin.
public struct HTTPHeader: Sendable, Equatable {
    /// Headers the user supplied (and credentials) stay with the origin they were meant for;
    /// headers afget itself needs for the transfer (Range, If-Range) go to every hop.
    public enum Scope: Sendable, Equatable {
        case sameOriginOnly
        case everyHop
    }

    public let name: String
    public let value: String
    public let scope: Scope

    public init(name: String, value: String, scope: Scope = .sameOriginOnly) {
        self.name = name
        self.value = value
        self.scope = scope
    }

    /// The wire form libcurl takes. An empty value is written "Name;" so libcurl sends it
    /// empty instead of dropping it.
    public var line: String {
        value.isEmpty ? "\(name);" : "\(name): \(value)"
    }

    /// Parses a `-H "Name: value"` argument.
    public static func parse(_ argument: String) throws(TransferFailure) -> HTTPHeader {
        guard let colon = argument.firstIndex(of: ":") else {
            throw TransferFailure(.input(.headerWithoutColon(firstWord: firstWord(of: argument))))
        }
        let name = String(argument[..<colon])
        let value = argument[argument.index(after: colon)...].trimmingWhitespace()
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
            throw TransferFailure(.input(.headerNameNotToken(firstWord: firstWord(of: name))))
        }
        guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else {
            throw TransferFailure(.input(.headerLineBreak(name: name)))
        }
        // RFC 9110 §5.5: no control characters but tab in a field value (nor could resume
        // data, an XML property list, hold one to replay).
        guard !value.utf8.contains(where: { TerminalText.isASCIIControl($0) && $0 != 0x09 }) else {
            throw TransferFailure(.input(.headerControlCharacter(name: name)))
        }
        return HTTPHeader(name: name, value: value)
    }
}

/// A malformed header may be a name and a secret without the colon between them
/// ("Authorization Bearer TOKEN", "X-Api-Key=TOKEN"): a message quotes its leading token only.
private func firstWord(of text: String) -> String {
    let word = String(decoding: text.utf8.prefix(while: isTokenByte), as: UTF8.self)
    return word.utf8.count < text.utf8.count ? word + "…" : text
}

/// RFC 9110 token characters.
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

extension String {
    /// Header names match ignoring ASCII case (they are tokens). Compared byte by byte: a
    /// response's headers are looked up a dozen times, and lowercasing both names for each
    /// comparison was the largest single cost of reading them.
    package func isSameHeaderName(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return zip(utf8, other.utf8).allSatisfy { $0 == $1 || asciiLowercase($0) == asciiLowercase($1) }
    }
}

private func asciiLowercase(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
}

extension StringProtocol {
    /// Without the spaces and tabs at either end. By scalars, not Characters: a space followed by
    /// a combining mark is one Character that is no space, so "Name: \u{30A}" kept its space and
    /// a header written as "Name: value" did not read back as itself (found by fuzzing). Read as
    /// bytes, where a space or a tab is always a whole scalar: every list line and header value
    /// is trimmed, and building the result scalar by scalar was 2 % of a batch of small files.
    /// Inlinable so that other modules get code for their String or Substring rather than the
    /// generic one, and a String with nothing to trim is returned as it is, not copied: the
    /// generic code and the copy were 1 % of a list's CPU.
    @inlinable package func trimmingWhitespace() -> String {
        let bytes = utf8
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        // Up to the byte after the last that is no space: the end of its scalar, whatever its length.
        var end = first
        var index = first
        while index != bytes.endIndex {
            let next = bytes.index(after: index)
            if !isSpace(bytes[index]) { end = next }
            index = next
        }
        if first == bytes.startIndex && end == bytes.endIndex, let whole = self as? String { return whole }
        return String(decoding: bytes[first..<end], as: UTF8.self)
    }
}
