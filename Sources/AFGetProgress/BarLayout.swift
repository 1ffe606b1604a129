import AFGetSupport

/// Decides what of the items' progress fits in a terminal `columns` wide, and lays it out, a
/// row per item, the rows in columns (`BarColumns`):
///
///     dir/name.iso    42% [=====>      ]   12.3 MiB/  27.0 MiB    5.1 MiB/s     ETA 0:03
///     other.tar.gz     7% [>           ]    1.9 MiB/  27.0 MiB  870.2 KiB/s     ETA 0:29
///
/// A line is at most `columns - 2` display columns. One that fills the last column leaves the
/// cursor waiting to wrap, and terminals disagree on what happens next; one that fills all but
/// the last leaves the cursor in it, where the terminal echoes a Ctrl-C's `^C`: its `C` wraps,
/// the live block is a row lower than afget knows, and the frame stays behind with a `^` at its
/// end. Two columns free take the echo on the row, and afget's next line writes over it. Percent, speed and ETA
/// stay down to `minimumColumns`; below that the renderer draws one short line for the whole
/// block.
public struct BarLayout {
    /// The narrowest terminal that still gets a line per item with percent, speed and ETA.
    public static let minimumColumns = 40
    /// The name is not cut below this before the bar starts to shrink.
    static let shortestName = 12
    /// A bar narrower than this says nothing the percent does not; it is left out instead.
    static let shortestBar = 8

    public let columns: Int
    public let useColor: Bool

    public init(columns: Int, useColor: Bool) {
        self.columns = columns
        self.useColor = useColor
    }

    /// The columns a line may fill: the window's less two, for the cursor and a `^C` echo.
    public var width: Int { max(0, columns - 2) }

    /// Whether the terminal is wide enough for a line per item.
    public var fitsItemLines: Bool { columns >= Self.minimumColumns }

    /// `text` cut to the width (a total line, a summary of the block).
    public func fitted(_ text: String) -> String {
        DisplayWidth.shortened(text, columns: width)
    }

    /// The rows of `items` shown together, lined up.
    func lines(for items: [LiveBlock.Item]) -> [String] {
        guard fitsItemLines else { return items.map { shortLine(bytes: $0.bytes, total: $0.total, speed: $0.speed) } }
        let names = items.map { TerminalText.clean($0.name) }
        let hasLengths = items.contains { ($0.total ?? 0) > 0 }
        guard
            let layout = BarColumns.choose(
                width: width, nameWidth: names.map(DisplayWidth.of).max() ?? 0, hasLengths: hasLengths)
        else { return items.map { shortLine(bytes: $0.bytes, total: $0.total, speed: $0.speed) } }
        return zip(names, items).map { name, item in
            item.waiting.map { waitingRow(name: name, TerminalText.clean($0), in: layout) } ?? row(name: name, item, in: layout)
        }
    }

    /// An item waiting before its first byte: its name in the name column, then what it waits
    /// for where its figures will be, cut to the width.
    private func waitingRow(name: String, _ waiting: String, in layout: BarColumns) -> String {
        let shown = DisplayWidth.shortenedPath(name, columns: layout.name)
        return fitted(shown + BarFields.blank(layout.name - DisplayWidth.of(shown)) + " " + waiting)
    }

    /// The line for one item named `name`, shown alone.
    public func line(name: String, bytes: Int64, total: Int64?, speed: Double) -> String {
        lines(for: [LiveBlock.Item(name: name, bytes: bytes, total: total, speed: speed)])[0]
    }

    /// " 42%    5.1 MiB/s     0:03": an item's figures alone, each in its widest form's width
    /// when all fit, else as many whole ones as fit the width.
    public func shortLine(bytes: Int64, total: Int64?, speed: Double) -> String {
        var padded = [BarFields.speed(speed)]
        var parts = [Formatting.speed(speed)]
        if let total, total > 0 {
            padded =
                [BarFields.percent(bytes, of: total)] + padded + [BarFields.duration(bytes: bytes, total: total, speed: speed)]
            parts = ["\(Formatting.percent(bytes, of: total))%"] + parts + [remaining(bytes: bytes, total: total, speed: speed)]
        }
        let steady = padded.joined(separator: " ")
        if DisplayWidth.of(steady) <= width { return steady }
        var line = ""
        for part in parts {
            let longer = line.isEmpty ? part : line + " " + part
            guard DisplayWidth.of(longer) <= width else { break }
            line = longer
        }
        return line
    }

    private func remaining(bytes: Int64, total: Int64, speed: Double) -> String {
        SpeedEstimator.secondsRemaining(bytes: bytes, total: total, speed: speed).map(Formatting.duration) ?? "--:--"
    }

    /// One row: the name cut from its start (so the file's own name stays in sight) or padded
    /// to the name column, then the figures in theirs.
    private func row(name: String, _ item: LiveBlock.Item, in layout: BarColumns) -> String {
        let shown = DisplayWidth.shortenedPath(name, columns: layout.name)
        var row = shown + BarFields.blank(layout.name - DisplayWidth.of(shown)) + " "
        guard layout.hasLengths else { return row + BarFields.size(item.bytes) + " " + BarFields.speed(item.speed) }
        let speed = " " + BarFields.speed(item.speed)
        guard let total = item.total, total > 0 else {
            // No percent, bar or ETA: the byte count under the others' sizes, or in the ETA's place.
            row += BarFields.blank(BarFields.percentWidth + (layout.bar > 0 ? layout.bar + 3 : 0))
            if layout.showsAmount {
                return row + " " + BarFields.size(item.bytes) + BarFields.blank(BarFields.sizeWidth + 1) + speed
            }
            return row + speed + " " + BarFields.padded(Formatting.bytes(item.bytes), to: BarFields.etaWidth)
        }
        row += BarFields.percent(item.bytes, of: total)
        if layout.bar > 0 { row += " [" + bar(columns: layout.bar, bytes: item.bytes, total: total) + "]" }
        if layout.showsAmount { row += " " + BarFields.amount(item.bytes, of: total) }
        return row + speed + " " + BarFields.eta(bytes: item.bytes, total: total, speed: item.speed)
    }

    private func bar(columns: Int, bytes: Int64, total: Int64) -> String {
        let filled = Int(Double(columns) * Double(min(bytes, total)) / Double(total))
        let arrow = filled < columns ? ">" : ""
        let done = String(repeating: "=", count: max(0, filled - arrow.count)) + arrow
        let rest = String(repeating: " ", count: columns - done.count)
        return useColor ? "\u{1B}[32m" + done + "\u{1B}[0m" + rest : done + rest
    }
}
