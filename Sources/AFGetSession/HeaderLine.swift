/// One line of a response's header block, read from the bytes libcurl hands over (line end
/// already cut). Split on bytes, so a common field costs two small strings and no scan by
/// characters: this runs on the curl thread for every line of every response.
enum HeaderLine: Equatable {
    /// "HTTP/1.1 200 OK": the version, the status code (0 when it is not a number) and the reason.
    case status(version: String, code: Int, reason: String)
    /// The empty line that ends a header block.
    case end
    /// A line starting with a space or tab: more of the previous field's value (obsolete folding).
    case continuation(String)
    /// "Name: value", the value without surrounding spaces and tabs.
    case field(name: String, value: String)
    /// Anything else (no colon): ignored.
    case other

    init(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else {
            self = .end
            return
        }
        if bytes.starts(with: Self.statusPrefix) {
            self = Self.status(bytes)
        } else if first == Self.space || first == Self.tab {
            self = .continuation(Self.text(UnsafeRawBufferPointer(rebasing: Self.trimmed(bytes[...]))))
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let name = UnsafeRawBufferPointer(rebasing: bytes[..<colon])
            let value = UnsafeRawBufferPointer(rebasing: Self.trimmed(bytes[(colon + 1)...]))
            // UTF-8 when the whole line is (both parts are then), else ISO-8859-1 for both.
            if let name = Self.utf8(name), let value = Self.utf8(value) {
                self = .field(name: name, value: value)
            } else {
                self = .field(name: Self.latin1(name), value: Self.latin1(value))
            }
        } else {
            self = .other
        }
    }

    /// Words separated by spaces and tabs; the reason is the rest of the line.
    private static func status(_ bytes: UnsafeRawBufferPointer) -> HeaderLine {
        let versionEnd = bytes.firstIndex(where: isBlank) ?? bytes.endIndex
        let afterVersion = trimmed(bytes[versionEnd...])
        let codeEnd = afterVersion.firstIndex(where: isBlank) ?? afterVersion.endIndex
        let digits = afterVersion[..<codeEnd]
        let code =
            (1...9).contains(digits.count) && digits.allSatisfy({ (0x30...0x39).contains($0) })
            ? digits.reduce(0) { $0 * 10 + Int($1 - 0x30) } : 0
        return .status(
            version: text(UnsafeRawBufferPointer(rebasing: bytes[..<versionEnd])), code: code,
            reason: text(UnsafeRawBufferPointer(rebasing: trimmed(afterVersion[codeEnd...]))))
    }

    /// A header line as text: UTF-8 when it is valid UTF-8, else ISO-8859-1 (each byte one
    /// character), so no byte is lost or replaced (RFC 9110 §5.5; Content-Disposition names).
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        utf8(bytes) ?? latin1(bytes)
    }

    /// The bytes as UTF-8 text, nil when they are not UTF-8. Header lines are nearly always
    /// ASCII, which is decoded without the general validation.
    private static func utf8(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func latin1(_ bytes: UnsafeRawBufferPointer) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    private static let statusPrefix = Array("HTTP/".utf8)
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
}
