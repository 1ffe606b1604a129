import AFGetSupport

/// A line for people, kept in pieces so that above the bars it can be fitted to one row of the
/// terminal: a line that wraps there takes two or three rows for one event, and a batch's
/// notices push the bars about. A URL is shortened in its middle ("http://host/…/file.iso"),
/// then details the line can do without are left out, the least useful first; the item's name
/// and the cause are never cut, so a line that cannot fit without cutting them wraps. In a log
/// the line is whole (`text`). Every piece is cleaned as it is added (`TerminalText.clean`), before
/// any width is measured: above the bars a line is written with the renderer's own cursor moves,
/// not through `OutputStream.writeLine`.
struct MessageLine: Equatable {
    struct Piece: Equatable {
        let text: String
        var isURL = false
        /// When the piece is left out: pieces of order 1 first, then 2, …; nil for never.
        var dropOrder: Int?

        init(text: String, isURL: Bool = false, dropOrder: Int? = nil) {
            self.text = TerminalText.clean(text)
            self.isURL = isURL
            self.dropOrder = dropOrder
        }
    }

    /// A URL the line can do without is left out rather than shortened below this: a shorter
    /// one names neither its host nor its file.
    static let shortestURL = 24
    /// One that must stay is shortened down to this before the line is let wrap.
    static let shortestKeptURL = 12

    private(set) var pieces: [Piece] = []

    init(_ text: String = "") {
        if !text.isEmpty { pieces.append(Piece(text: text)) }
    }

    /// Words of someone else's making (a notice): its URLs may be shortened, nothing else.
    static func words(_ text: String) -> MessageLine {
        var line = MessageLine()
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { line.add(" ") }
            if word.contains("://") { line.addURL(String(word)) } else { line.add(String(word)) }
        }
        return line
    }

    /// Text never cut: the item's name, the cause, the words around them.
    mutating func add(_ text: String) {
        pieces.append(Piece(text: text))
    }

    mutating func addURL(_ url: String, dropOrder: Int? = nil) {
        pieces.append(Piece(text: url, isURL: true, dropOrder: dropOrder))
    }

    /// Text the line can do without, left out in `dropOrder`'s turn.
    mutating func addDetail(_ text: String, dropOrder: Int) {
        pieces.append(Piece(text: text, dropOrder: dropOrder))
    }

    var text: String { pieces.map(\.text).joined() }

    /// The line in at most `width` columns, when it can be without cutting what is never cut.
    func fitted(to width: Int) -> String {
        let orders = Set(pieces.compactMap(\.dropOrder)).sorted()
        for dropped in [0] + orders {
            let kept = pieces.filter { ($0.dropOrder ?? .max) > dropped }
            if let line = joined(kept, within: width, shortest: Self.shortestURL) { return line }
        }
        let kept = pieces.filter { $0.dropOrder == nil }
        if let line = joined(kept, within: width, shortest: Self.shortestKeptURL) { return line }
        // Too long even so: the URLs at their shortest, the rest whole, and the line wraps.
        return joined(kept, within: 0, shortest: Self.shortestKeptURL, always: true) ?? text
    }

    /// `pieces` in `width` columns, their URLs shortened in the middle as far as needed but not
    /// below `shortest` columns, the longest first; nil when they do not fit, unless `always`.
    private func joined(_ pieces: [Piece], within width: Int, shortest: Int, always: Bool = false) -> String? {
        var widths = pieces.map { DisplayWidth.of($0.text) }
        var excess = widths.reduce(0, +) - width
        for index in widths.indices.sorted(by: { widths[$0] > widths[$1] }) where pieces[index].isURL && excess > 0 {
            let spared = min(max(0, widths[index] - shortest), excess)
            widths[index] -= spared
            excess -= spared
        }
        guard excess <= 0 || always else { return nil }
        return zip(pieces, widths).map { piece, width in
            piece.isURL ? DisplayWidth.middleShortened(piece.text, columns: width) : piece.text
        }.joined()
    }
}
