import AFGetSupport

/// What the live block shows in a window of a given size: a line per active item, the lines
/// in columns (`BarLayout`), and, in a batch, the total line under them.
///
/// The block is never taller than the window less one row. The renderer gets back to the
/// block's top by moving the cursor up; a terminal stops the cursor at its top row, so a taller
/// block could not be cleared, and each redraw would push a stale frame into the scrollback.
/// When the items do not fit, a batch shows its total line alone. On a terminal narrower than
/// `BarLayout.minimumColumns` the block is one short line.
struct LiveBlock {
    struct Item {
        var name: String
        var bytes: Int64
        var total: Int64?
        var speed: Double
        /// What the item waits for before its first byte ("connecting to HOST"), shown in place
        /// of its figures.
        var waiting: String? = nil
    }

    let size: TerminalSize
    let useColor: Bool

    /// The most lines the block may have: one row is left for the lines printed above it.
    var tallest: Int { max(1, size.rows - 1) }

    /// The block's lines: `totalLine` is a batch's, `shortTotalLine` the same without what a
    /// narrow terminal cannot spare.
    func lines(items: [Item], totalLine: String?, shortTotalLine: String? = nil) -> [String] {
        let layout = BarLayout(columns: size.columns, useColor: useColor)
        guard layout.fitsItemLines else {
            if let totalLine { return [layout.fitted(shortTotalLine ?? totalLine)] }
            return items.prefix(1).map {
                $0.waiting.map { layout.fitted(TerminalText.clean($0)) }
                    ?? layout.shortLine(bytes: $0.bytes, total: $0.total, speed: $0.speed)
            }
        }
        // The rows are laid out together, and only those shown: they line up with each other.
        guard let totalLine else { return layout.lines(for: Array(items.prefix(tallest))) }
        let total = layout.fitted(totalLine)
        return items.count + 1 <= tallest ? layout.lines(for: items) + [total] : [total]
    }
}
