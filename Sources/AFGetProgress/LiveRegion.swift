/// The rows of the terminal the live block is drawn on, under the last line printed for good,
/// and what each of them holds, so that a frame rewrites only the rows whose text changed and
/// leaves the others alone: nothing is erased and drawn again, so nothing flickers, and a
/// batch's eight bars cost a row's worth of writing when one of them moved.
///
/// Only what the terminal does for sure is used: CR, LF (a move down, which scrolls only below
/// the last row, where there is nothing of the block to lose), cursor up (`ESC[nA`, never more
/// rows than the window has less one, so never past its top) and erasing one line (`ESC[K`,
/// `ESC[2K`). Never "erase to the end of the screen": from the window's top-left corner that
/// erases the whole screen, which tmux (scroll-on-clear) and some other terminals first copy
/// into the scrollback, a stale frame there each time. When the window's size changes, the
/// rows cannot be trusted (the terminal may have moved or rewrapped them): they are erased as
/// far up as the cursor can reach and drawn afresh.
///
/// Between calls the cursor is on the lowest row that holds text, or on the top row when none
/// does; every row below it is blank.
struct LiveRegion {
    /// What each row holds, from the top one; "" for a row erased.
    private(set) var rows: [String] = []
    /// The row the cursor is on.
    private var cursor = 0
    /// The window's size when the rows were drawn.
    private var size: TerminalSize?

    /// The text that makes the rows show `lines`, one to a row from the top one, and blanks
    /// rows below them that held text.
    mutating func draw(_ lines: [String], in window: TerminalSize) -> String {
        var out = resync(to: window)
        for (index, line) in lines.enumerated() where index >= rows.count || rows[index] != line {
            out += move(to: index) + "\r" + line + "\u{1B}[K"
            set(index, line)
        }
        for index in rows.indices.dropFirst(lines.count) where !rows[index].isEmpty {
            out += move(to: index) + "\r\u{1B}[2K"
            rows[index] = ""
        }
        return out + move(to: max(0, lines.count - 1))
    }

    /// The text that prints `line` for good at the top row, the rows it covers (as it wraps in
    /// the window) leaving the region, which goes on below it.
    mutating func printAbove(_ line: String, in window: TerminalSize) -> String {
        var out = resync(to: window)
        let taken = line.split(separator: "\n", omittingEmptySubsequences: false)
            .reduce(0) { $0 + DisplayWidth.rows(String($1), columns: window.columns) }
        if taken == 1 && DisplayWidth.of(line) < window.columns {
            // One row, short of the last column (so the cursor is not left waiting to wrap,
            // where erasing the rest of the line would take the last character): written over
            // the row, and the rest of the row erased.
            out += move(to: 0) + "\r" + line + "\u{1B}[K\n"
        } else {
            // A longer line runs over the rows below: what they held must not show after its end.
            for index in rows.indices.prefix(taken) where !rows[index].isEmpty {
                out += move(to: index) + "\r\u{1B}[2K"
            }
            out += move(to: 0) + "\r" + line + "\n"
        }
        rows = Array(rows.dropFirst(taken))
        cursor = 0
        return out
    }

    /// The text that erases every row that holds text, leaving the cursor at the start of the
    /// top row: where what comes next (a summary, a response body, the shell's prompt) goes.
    mutating func clear(in window: TerminalSize) -> String {
        var out = resync(to: window)
        // From the bottom up, so that the cursor ends on the top row's start, just erased.
        for index in rows.indices.reversed() where !rows[index].isEmpty {
            out += move(to: index) + "\r\u{1B}[2K"
        }
        if cursor != 0 || !out.hasSuffix("\r\u{1B}[2K") { out += move(to: 0) + "\r" }
        rows = []
        return out
    }

    /// After the window's size changed: the rows erased from the cursor up, no further than
    /// the window's top, and forgotten, the cursor on the highest of them.
    private mutating func resync(to window: TerminalSize) -> String {
        defer { size = window }
        guard let size, size != window, !rows.isEmpty else { return "" }
        let reachable = min(cursor, max(0, window.rows - 1))
        rows = []
        cursor = 0
        return "\r\u{1B}[2K" + String(repeating: "\u{1B}[A\u{1B}[2K", count: reachable)
    }

    private mutating func move(to row: Int) -> String {
        defer { cursor = row }
        if row < cursor { return "\u{1B}[\(cursor - row)A" }
        // Down by line feeds: the rows below exist (or are made, scrolling the window).
        return String(repeating: "\n", count: row - cursor)
    }

    private mutating func set(_ index: Int, _ line: String) {
        if index < rows.count { rows[index] = line } else { rows.append(line) }
    }
}
