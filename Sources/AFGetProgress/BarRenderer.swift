import AFGetSupport
import Glibc

/// Live progress for a terminal: one bar per active transfer and, in a batch, a total line,
/// redrawn in place a few times a second, never more lines than the terminal has. Lines for
/// people (done, failed, continuing, notices) are printed above the block, which is then drawn
/// again.
public final class BarRenderer: ProgressRenderer {
    private let stream: OutputStream
    private let useColor: Bool
    private let isBatch: Bool
    private var bars: [(info: ItemInfo, bytes: Int64, total: Int64?, speed: Double)] = []
    private var totals = BatchTotals()
    private var drawnLines = 0
    private var lastDrawAt = 0.0
    private static let redrawInterval = 0.2

    public init(stream: OutputStream = .standardError, useColor: Bool, showsSummary: Bool) {
        self.stream = stream
        self.useColor = useColor
        isBatch = showsSummary
    }

    public func handle(_ event: ItemEvent) {
        totals.record(event)
        if let line = HumanMessages.line(for: event, inBatch: isBatch) {
            if case .interrupted = event { bars.removeAll() }
            if let ended = event.endedItem { remove(ended) }
            printAbove(line)
            return
        }
        switch event {
        case .started(let info, let total, let offset):
            bars.removeAll { $0.info.id == info.id }
            bars.append((info, offset ?? 0, total, 0))
            // A continued download says where it picks up, as a log does; a bar starting at
            // 37% would not tell a continue from a fast start.
            if offset != nil {
                printAbove(HumanMessages.started(info, total: total, offset: offset))
            } else {
                redraw(throttled: false)
            }
        case .progress(let info, let bytes, let total, let speed):
            if let index = bars.firstIndex(where: { $0.info.id == info.id }) {
                bars[index] = (info, bytes, total, speed)
            }
            redraw(throttled: true)
        case .summary(let summary):
            bars.removeAll()
            clearBlock()
            if isBatch { stream.writeLine(HumanMessages.summary(summary)) }
        default:
            // Drawn with the first transfer, not "[0/1]" first.
            break
        }
    }

    public func finish() {
        clearBlock()
    }

    private func remove(_ info: ItemInfo) {
        bars.removeAll { $0.info.id == info.id }
    }

    private func printAbove(_ text: String) {
        clearBlock()
        stream.writeLine(text)
        redraw(throttled: false)
    }

    /// Moves back to the first line of the block and clears everything below.
    private func clearBlock() {
        guard drawnLines > 0 else { return }
        stream.write("\r" + (drawnLines > 1 ? "\u{1B}[\(drawnLines - 1)A" : "") + "\u{1B}[J")
        drawnLines = 0
    }

    private func redraw(throttled: Bool) {
        let now = monotonicSeconds()
        if throttled && now - lastDrawAt < Self.redrawInterval { return }
        lastDrawAt = now
        let layout = BarLayout(width: stream.columns - 1, useColor: useColor)
        var lines = bars.map { layout.line(name: $0.info.lineName, bytes: $0.bytes, total: $0.total, speed: $0.speed) }
        if isBatch {
            // Keep the total line and as many bars as fit above it.
            lines = Array(lines.prefix(max(0, stream.rows - 2))) + [String(totals.line.prefix(max(0, stream.columns - 1)))]
        } else {
            lines = Array(lines.prefix(max(1, stream.rows - 1)))
        }
        clearBlock()
        guard !lines.isEmpty else { return }
        stream.write(lines.joined(separator: "\u{1B}[K\n") + "\u{1B}[K")
        drawnLines = lines.count
    }
}

/// Lays out "name  42% [=====>     ] 12.3 MiB/27.0 MiB  5.1 MiB/s  ETA 0:03" in a given width,
/// dropping the bar first and shortening the name when space runs out.
public struct BarLayout {
    public let width: Int
    public let useColor: Bool

    public init(width: Int, useColor: Bool) {
        self.width = width
        self.useColor = useColor
    }

    public func line(name: String, bytes: Int64, total: Int64?, speed: Double) -> String {
        var figures = Formatting.bytes(bytes)
        var percent = ""
        if let total, total > 0 {
            figures += "/" + Formatting.bytes(total)
            percent = "\(Formatting.percent(bytes, of: total))%"
        }
        let eta = Formatting.eta(bytes: bytes, total: total, speed: speed)
        let tail = [figures, Formatting.speed(speed), eta].compactMap { $0 }.joined(separator: "  ")
        let head = percent.isEmpty ? "" : " " + String(repeating: " ", count: 4 - percent.count) + percent

        // The name gives way first, down to a few characters, so the figures stay readable.
        var nameWidth = min(name.count, max(8, width / 3))
        let figuresWidth = head.count + 2 + tail.count
        if nameWidth + figuresWidth > width { nameWidth = min(name.count, max(4, width - figuresWidth)) }
        let shortName = name.count > nameWidth ? String(name.prefix(nameWidth - 1)) + "…" : name
        let fixed = shortName.count + head.count + 2 + tail.count
        let barWidth = width - fixed - 3
        guard let total, total > 0, barWidth >= 10 else {
            return String((shortName + head + "  " + tail).prefix(max(0, width)))
        }
        let filled = Int(Double(barWidth) * Double(min(bytes, total)) / Double(total))
        let arrow = filled < barWidth ? ">" : ""
        let done = String(repeating: "=", count: max(0, filled - arrow.count)) + arrow
        let rest = String(repeating: " ", count: barWidth - done.count)
        let bar = useColor ? "\u{1B}[32m" + done + "\u{1B}[0m" + rest : done + rest
        return shortName + head + " [" + bar + "]  " + tail
    }
}
