/// The one sanitizer of text for people. Whatever a line quotes from outside (a server's status
/// reason, header or message, a URL, a list's line, a file's name, an argument), the human
/// renderers write it through `clean` (`OutputStream.writeLine`, `MessageLine`, the bars' names),
/// so a hostile server cannot move the cursor, recolour the terminal, set its title or disguise
/// a name. What could steer a terminal is shown instead of obeyed: control characters (escape
/// sequences among them) as `\x1B`, the bidirectional overrides that make text read as something
/// else as `\u202E`; a tab is a space. The cause a line names stays readable: `malformed
/// Content-Length "12\x1B[2J"`, not a cleared screen, nor "12" as if it were a count.
/// JSON is not cleaned: it carries the text exactly, escaped (`JSONLine.quoted`).
public enum TerminalText {
    /// `text` with every character that could steer a terminal shown as text: one line, as a
    /// line break is shown too.
    public static func clean(_ text: String) -> String {
        // Printable ASCII, nearly every line, is seen in one look at the bytes: reading each
        // line's scalars was 1 % of the CPU of a list of 404s, whose every item says a line.
        if text.withUTF8Bytes({ bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }) { return text }
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar == "\t" {
                shown += " "
            } else if isUnsafe(scalar) {
                shown += visible(scalar)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// `\x1B` for a control character, `\u202E` for a bidirectional mark.
    private static func visible(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return scalar.value <= 0xFF
            ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
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
