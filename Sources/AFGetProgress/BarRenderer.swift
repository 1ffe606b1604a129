import AFGetSupport
import Glibc

/// Live progress for a terminal: one bar per active transfer and, in a batch, a total line,
/// redrawn in place a few times a second. Lines for people (done, failed, continuing, notices),
/// each fitted to one row where it can be (`MessageLine`), and output sharing the terminal (an
/// upload's response) are written above the block, which is then drawn again. What the block holds in the window is `LiveBlock`'s to decide; this
/// type only draws it, moving the cursor up within the block it drew and never further, and
/// erasing line by line.
public final class BarRenderer: ProgressRenderer {
    private let stream: OutputStream
    private let useColor: Bool
    private let isBatch: Bool
    /// Reads the window's size at each frame.
    private let measure: () -> TerminalSize
    private var bars: [(info: ItemInfo, bytes: Int64, total: Int64?, speed: Double)] = []
    private var totals = BatchTotals()
    private var drawnLines = 0
    private var lastDrawAt = 0.0
    private static let redrawInterval = 0.2

    public init(
        stream: OutputStream = .standardError, useColor: Bool, showsSummary: Bool,
        measure: (() -> TerminalSize)? = nil
    ) {
        self.stream = stream
        self.useColor = useColor
        isBatch = showsSummary
        self.measure = measure ?? { TerminalSize.of(stream) }
    }

    public func handle(_ event: ItemEvent) {
        totals.record(event)
        if let line = HumanMessages.message(for: event, inBatch: isBatch) {
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
                printAbove(HumanMessages.startedLine(info, total: total, offset: offset))
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
            clearBlock(rows: measure().rows)
            if isBatch { stream.writeLine(HumanMessages.summary(summary)) }
        default:
            // Drawn with the first transfer, not "[0/N]" first.
            break
        }
    }

    /// `item`'s transfer is over: its bar goes, and `bytes` are written where the block was,
    /// so a response on the same terminal is never torn by a redraw. On a terminal the output
    /// is ended with a newline, or the next frame would be drawn over its last line.
    public func writeOutput(_ bytes: [UInt8], of item: ItemInfo, to output: OutputStream) -> Int32? {
        remove(item)
        clearBlock(rows: measure().rows)
        let failure = output.write(bytes: bytes)
        if failure == nil, output.isTerminal, let last = bytes.last, last != UInt8(ascii: "\n") {
            output.write("\n")
        }
        return failure
    }

    public func finish() {
        clearBlock(rows: measure().rows)
    }

    private func remove(_ info: ItemInfo) {
        bars.removeAll { $0.info.id == info.id }
    }

    /// `line` fitted to one row where it can be, above the block, and the block under it.
    private func printAbove(_ line: MessageLine) {
        let size = measure()
        clearBlock(rows: size.rows)
        stream.writeLine(line.fitted(to: BarLayout(columns: size.columns, useColor: useColor).width))
        redraw(throttled: false)
    }

    /// Erases the block's rows one by one from the bottom up, leaving the cursor at the start
    /// of its first row. Never "erase to the end of the screen": from the window's top-left
    /// corner that erases the whole screen, which tmux (scroll-on-clear) and some other
    /// terminals first copy into the scrollback, so once the block reached the top row every
    /// redraw left a stale frame there. The cursor goes up no more than the block's lines, and
    /// no more than the window's rows less one: a window made shorter since the last frame has
    /// pushed the block's top out of reach.
    private func clearBlock(rows: Int) {
        guard drawnLines > 0 else { return }
        let reachable = min(drawnLines, max(1, rows))
        stream.write("\r\u{1B}[2K" + String(repeating: "\u{1B}[A\u{1B}[2K", count: reachable - 1))
        drawnLines = 0
    }

    private func redraw(throttled: Bool) {
        let now = monotonicSeconds()
        if throttled && now - lastDrawAt < Self.redrawInterval { return }
        lastDrawAt = now
        let size = measure()
        let items = bars.map { LiveBlock.Item(name: $0.info.lineName, bytes: $0.bytes, total: $0.total, speed: $0.speed) }
        let lines = LiveBlock(size: size, useColor: useColor).lines(
            items: items, totalLine: isBatch ? totals.line : nil, shortTotalLine: isBatch ? totals.shortLine : nil)
        clearBlock(rows: size.rows)
        guard !lines.isEmpty else { return }
        stream.write(lines.joined(separator: "\u{1B}[K\n") + "\u{1B}[K")
        drawnLines = lines.count
    }
}
