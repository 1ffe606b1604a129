/// Text that came from a server (a status reason, a header value, a file name) made safe to
/// print for people: control characters (escape sequences among them) and the bidirectional
/// overrides that make text read as something else are dropped, so a hostile server cannot
/// move the cursor, recolour the terminal or disguise a name.
public enum TerminalText {
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.compactMap { scalar in
                    scalar == "\t" ? " " : (isUnsafe(scalar) ? nil : scalar)
                }))
    }

    /// A C0 control character or DEL: what neither an HTTP field value (but tab) nor XML resume
    /// data may hold.
    package static func isASCIIControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }

    /// C0 and C1 control characters, DEL, and bidirectional marks, embeddings and isolates.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
