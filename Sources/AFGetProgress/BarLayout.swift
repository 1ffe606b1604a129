import AFGetSupport

/// Decides what of one item's progress fits in a terminal `columns` wide, and lays it out:
///
///     dir/name.iso  42% [=====>      ]  12.3 MiB/27.0 MiB  5.1 MiB/s  ETA 0:03
///
/// A line is at most `columns - 1` display columns: one that fills the last column leaves the
/// cursor waiting to wrap, and terminals disagree on what happens next. As room runs out the
/// name gives way first, then the bar; then the byte figures go, then the bar, then the
/// spacing. Percent, speed and ETA stay down to `minimumColumns`; below that the renderer
/// draws one short line for the whole block.
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

    /// The columns a line may fill.
    public var width: Int { max(0, columns - 1) }

    /// Whether the terminal is wide enough for a line per item.
    public var fitsItemLines: Bool { columns >= Self.minimumColumns }

    /// `text` cut to the width (a total line, a summary of the block).
    public func fitted(_ text: String) -> String {
        DisplayWidth.shortened(text, columns: width)
    }

    /// The line for one item named `name`.
    public func line(name: String, bytes: Int64, total: Int64?, speed: Double) -> String {
        guard fitsItemLines else { return shortLine(bytes: bytes, total: total, speed: speed) }
        let name = TerminalText.clean(name)
        let speedText = Formatting.speed(speed)
        guard let total, total > 0 else {
            // The length is not known: no percent, bar or ETA to keep.
            for separator in ["  ", " "] {
                let tail = separator + Formatting.bytes(bytes) + separator + speedText
                if let line = withName(name, before: tail, atLeast: separator == " " ? 1 : Self.shortestName) {
                    return line
                }
            }
            return fitted(Formatting.bytes(bytes) + " " + speedText)
        }
        let percent = "\(Formatting.percent(bytes, of: total))%"
        let paddedPercent = String(repeating: " ", count: max(0, 4 - percent.count)) + percent
        let eta = "ETA " + remaining(bytes: bytes, total: total, speed: speed)
        let amount = Formatting.bytes(bytes) + "/" + Formatting.bytes(total)

        for figures in [[amount, speedText, eta], [speedText, eta]] {
            if let line = withBar(name, percent: paddedPercent, figures: figures, bytes: bytes, total: total) {
                return line
            }
        }
        if let line = withName(name, before: " " + paddedPercent + "  " + speedText + "  " + eta, atLeast: Self.shortestName) {
            return line
        }
        if let line = withName(name, before: " " + percent + " " + speedText + " " + eta, atLeast: 1) {
            return line
        }
        return shortLine(bytes: bytes, total: total, speed: speed)
    }

    /// "42% 5.1 MiB/s 0:03": an item's figures alone, as many whole ones as fit the width.
    public func shortLine(bytes: Int64, total: Int64?, speed: Double) -> String {
        var parts: [String] = []
        if let total, total > 0 { parts.append("\(Formatting.percent(bytes, of: total))%") }
        parts.append(Formatting.speed(speed))
        if let total, total > 0 { parts.append(remaining(bytes: bytes, total: total, speed: speed)) }
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

    /// `name` (cut to what `tail` leaves, not below `atLeast` columns) followed by `tail`.
    private func withName(_ name: String, before tail: String, atLeast shortest: Int) -> String? {
        let room = width - DisplayWidth.of(tail)
        guard room >= min(DisplayWidth.of(name), shortest) else { return nil }
        return DisplayWidth.shortenedPath(name, columns: room) + tail
    }

    /// "name  42% [====>   ]  figures…", or nil when the bar would be narrower than `shortestBar`
    /// even with the name cut to `shortestName`.
    private func withBar(_ name: String, percent: String, figures: [String], bytes: Int64, total: Int64) -> String? {
        let tail = "]  " + figures.joined(separator: "  ")
        let room = width - DisplayWidth.of(" " + percent + " [" + tail)
        let nameWidth = DisplayWidth.of(name)
        // On a wide terminal the name takes up to a third of the line and the bar the rest.
        let wanted = min(nameWidth, max(Self.shortestName, width / 3))
        let nameColumns = min(wanted, max(min(nameWidth, Self.shortestName), room - Self.shortestBar))
        let shownName = DisplayWidth.shortenedPath(name, columns: nameColumns)
        let barColumns = room - DisplayWidth.of(shownName)
        guard barColumns >= Self.shortestBar else { return nil }
        return shownName + " " + percent + " [" + bar(columns: barColumns, bytes: bytes, total: total) + tail
    }

    private func bar(columns: Int, bytes: Int64, total: Int64) -> String {
        let filled = Int(Double(columns) * Double(min(bytes, total)) / Double(total))
        let arrow = filled < columns ? ">" : ""
        let done = String(repeating: "=", count: max(0, filled - arrow.count)) + arrow
        let rest = String(repeating: " ", count: columns - done.count)
        return useColor ? "\u{1B}[32m" + done + "\u{1B}[0m" + rest : done + rest
    }
}
