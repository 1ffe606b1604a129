import Foundation

/// A terminal window of fixed size fed what afget drew, enough to tell whether redraws stay in
/// place: printable text (wide East Asian characters take two columns; a character past the
/// last column wraps to the next row), CR, LF (scrolling the top row into the scrollback at the
/// bottom), cursor up (`ESC[nA`, `ESC[nF`, stopped at the top row as a terminal stops it),
/// erase below (`ESC[J`; from the top-left corner, the screen goes into the scrollback first,
/// as tmux does), erase the line or to its end (`ESC[2K`, `ESC[K`); other escape sequences
/// are skipped.
struct TerminalScreen {
    let columns: Int
    let rows: Int
    private(set) var screen: [String]
    private(set) var scrollback: [String] = []
    private var row = 0
    private var column = 0
    private var cells: [[Character]]
    /// Upward moves asked for, and how many the top row cut short.
    private(set) var upwardMoves: [Int] = []
    private(set) var movesPastTheTop = 0

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: [], count: rows)
        screen = []
    }

    static func columns(of character: Character) -> Int {
        guard let value = character.unicodeScalars.first?.value else { return 0 }
        return (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0xFF00...0xFF60).contains(value) || (0x1F300...0x1FAFF).contains(value) ? 2 : 1
    }

    static func columns(of text: String) -> Int { text.reduce(0) { $0 + columns(of: $1) } }

    mutating func feed(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r": column = 0
            case "\n", "\r\n":
                if character == "\r\n" { column = 0 }
                lineFeed()
            case "\u{1B}":
                guard characters.first == "[" else { continue }
                characters.removeFirst()
                var parameter = ""
                while let next = characters.popFirst() {
                    if next.isNumber || next == ";" || next == "?" {
                        parameter.append(next)
                        continue
                    }
                    control(next, Int(parameter) ?? 1, given: !parameter.isEmpty)
                    break
                }
            default:
                put(character)
            }
        }
        screen = cells.map { String($0).replacingOccurrences(of: "\u{0}", with: "") }
    }

    private mutating func lineFeed() {
        if row == rows - 1 {
            scrollback.append(String(cells.removeFirst()).replacingOccurrences(of: "\u{0}", with: ""))
            cells.append([])
        } else {
            row += 1
        }
    }

    private mutating func put(_ character: Character) {
        let width = Self.columns(of: character)
        if column + width > columns {
            column = 0
            lineFeed()
        }
        var line = cells[row]
        while line.count < column + width { line.append(" ") }
        line[column] = character
        if width == 2 { line[column + 1] = "\u{0}" }
        cells[row] = line
        column += width
    }

    private mutating func control(_ final: Character, _ count: Int, given: Bool) {
        switch final {
        case "A", "F":
            upwardMoves.append(count)
            if count > row { movesPastTheTop += 1 }
            row = max(0, row - count)
            if final == "F" { column = 0 }
        case "J":
            // Erasing the whole screen from its top-left corner: tmux (scroll-on-clear, its
            // default) keeps what was there in the scrollback, as some other terminals do.
            if row == 0 && column == 0 {
                scrollback += cells.map { String($0).replacingOccurrences(of: "\u{0}", with: "") }.filter { !$0.isEmpty }
            }
            cells[row] = Array(cells[row].prefix(column))
            for below in (row + 1)..<rows { cells[below] = [] }
        case "K":
            cells[row] = given && count == 2 ? [] : Array(cells[row].prefix(column))
        default:
            break
        }
    }
}
