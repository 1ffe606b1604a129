/// The live progress bar for a terminal: one line redrawn in place a few times a second,
/// sized to the terminal, replaced by a plain line when the item ends.
public final class BarRenderer: ProgressRenderer {
    private let stream: OutputStream
    private let useColor: Bool
    private let showsSummary: Bool
    private var active: (info: ItemInfo, bytes: Int64, total: Int64?, speed: Double)?
    private var lineIsDrawn = false
    private var lastDrawAt = 0.0
    private static let redrawInterval = 0.2

    public init(stream: OutputStream = .standardError, useColor: Bool, showsSummary: Bool) {
        self.stream = stream
        self.useColor = useColor
        self.showsSummary = showsSummary
    }

    public func handle(_ event: ItemEvent) {
        switch event {
        case .queued:
            break
        case .started(let info, let total, let offset):
            active = (info, offset ?? 0, total, 0)
            draw()
        case .progress(let info, let bytes, let total, let speed):
            active = (info, bytes, total, speed)
            if monotonicSeconds() - lastDrawAt >= Self.redrawInterval { draw() }
        case .done(let info, let bytes, let seconds, _):
            active = nil
            printLine(HumanMessages.done(info, bytes: bytes, seconds: seconds))
        case .skipped(let info, let reason):
            printLine(HumanMessages.skipped(info, reason: reason))
        case .failed(let info, let failure):
            if active?.info == info { active = nil }
            printLine(HumanMessages.failure(failure))
        case .retrying(let info, let attempt, let delay, let reason):
            printLine(HumanMessages.retrying(info, attempt: attempt, delay: delay, reason: reason))
        case .restarting(let info, let reason):
            printLine(HumanMessages.restarting(info, reason: reason))
        case .notice(let text):
            printLine(text)
        case .interrupted:
            active = nil
            printLine(HumanMessages.interrupted)
        case .summary(let summary):
            if showsSummary { printLine(HumanMessages.summary(summary)) }
        }
    }

    public func finish() {
        clearLine()
    }

    /// Prints a whole line above the bar, then puts the bar back.
    private func printLine(_ text: String) {
        clearLine()
        stream.writeLine(text)
        if active != nil { draw() }
    }

    private func clearLine() {
        if lineIsDrawn {
            stream.write("\r\u{1B}[K")
            lineIsDrawn = false
        }
    }

    private func draw() {
        guard let active else { return }
        lastDrawAt = monotonicSeconds()
        let line = BarLayout(width: stream.columns - 1, useColor: useColor)
            .line(name: active.info.displayName, bytes: active.bytes, total: active.total, speed: active.speed)
        stream.write("\r" + line + "\u{1B}[K")
        lineIsDrawn = true
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
        var eta = ""
        if let total, total > 0 {
            figures += "/" + Formatting.bytes(total)
            percent = "\(Formatting.percent(bytes, of: total))%"
            if speed > 0 && total >= bytes {
                eta = "ETA " + Formatting.duration(Double(total - bytes) / speed)
            }
        }
        let tail = [figures, Formatting.speed(speed), eta].filter { !$0.isEmpty }.joined(separator: "  ")
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
