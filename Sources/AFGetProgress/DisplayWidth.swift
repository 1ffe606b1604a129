/// How many terminal columns text takes. A line is fitted to the terminal by columns, not by
/// characters or bytes: a CJK or emoji character takes two, a combining mark none, and a line
/// that is one column too wide wraps onto a second row the renderer does not know about.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.contains(where: isWide) { return 2 }
        guard let first = scalars.first else { return 0 }
        return isZeroWidth(first) ? 0 : 1
    }

    /// The longest start of `text` that fits in `columns`.
    static func prefix(_ text: String, columns: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let width = of(text[index])
            if used + width > columns { break }
            used += width
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// The longest end of `text` that fits in `columns`.
    static func suffix(_ text: String, columns: Int) -> String {
        var used = 0
        var start = text.endIndex
        for index in text.indices.reversed() {
            let width = of(text[index])
            if used + width > columns { break }
            used += width
            start = index
        }
        return String(text[start...])
    }

    /// `text` cut to `columns`, its end replaced by "…" when it does not fit whole.
    static func shortened(_ text: String, columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 1 else { return String(repeating: "…", count: max(0, columns)) }
        return prefix(text, columns: columns - 1) + "…"
    }

    /// A path cut to `columns` from its start, so the file's own name stays in sight.
    static func shortenedPath(_ text: String, columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 1 else { return String(repeating: "…", count: max(0, columns)) }
        return "…" + suffix(text, columns: columns - 1)
    }

    /// `text` cut to `columns` in its middle, "…" in place of what was left out: a URL keeps
    /// its host at the start and its file's name at the end.
    static func middleShortened(_ text: String, columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 1 else { return String(repeating: "…", count: max(0, columns)) }
        let head = prefix(text, columns: columns / 2)
        return head + "…" + suffix(text, columns: columns - 1 - of(head))
    }

    /// The rows `text` takes on a terminal `columns` wide, as it wraps: a wide character that
    /// does not fit in a row's last column goes to the next row whole.
    static func rows(_ text: String, columns: Int) -> Int {
        guard columns > 0 else { return 1 }
        var rows = 1
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns {
                rows += 1
                used = 0
            }
            used += width
        }
        return rows
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: true
        default: false
        }
    }

    /// East Asian wide and fullwidth characters, and emoji shown as pictures.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        return switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
