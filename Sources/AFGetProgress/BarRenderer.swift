import AFGetSupport
import Glibc

/// Live progress for a terminal: one bar per active transfer and, in a batch, a total line,
/// redrawn in place a few times a second. Lines for people (done, failed, continuing, notices),
/// each fitted to one row where it can be (`MessageLine`), and output sharing the terminal (an
/// upload's response) are written above the block, which then goes on under them. What the block holds in the window is `LiveBlock`'s to decide, how
/// its rows line up `BarLayout`'s, and which rows must be written again `LiveRegion`'s; this
/// type feeds them the events and writes what they make, each change in one write.
public final class BarRenderer: ProgressRenderer {
    private let stream: OutputStream
    private let useColor: Bool
    private let isBatch: Bool
    /// Reads the window's size at each frame.
    private let measure: () -> TerminalSize
    /// A row per item: its figures, or what it waits for before its first byte.
    private var bars: [(info: ItemInfo, bytes: Int64, total: Int64?, speed: Double, waiting: String?)] = []
    private var totals = BatchTotals()
    private var region = LiveRegion()
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
            // Waiting to retry is not connecting: the row goes until the next attempt's news.
            if case .retrying(let info, _, _, _) = event { bars.removeAll { $0.info.id == info.id && $0.waiting != nil } }
            printAbove(line)
            return
        }
        switch event {
        case .connecting(let info, let host):
            bars.removeAll { $0.info.id == info.id }
            bars.append((info, 0, nil, 0, HumanMessages.connecting(to: host)))
            redraw(throttled: false)
        case .connected(let info):
            // Its figures come with its answer; until then, nothing said is better than a stale word.
            bars.removeAll { $0.info.id == info.id && $0.waiting != nil }
            redraw(throttled: false)
        case .started(let info, let total, let offset):
            bars.removeAll { $0.info.id == info.id }
            bars.append((info, offset ?? 0, total, 0, nil))
            // A continued download says where it picks up, as a log does; a bar starting at
            // 37% would not tell a continue from a fast start.
            if offset != nil {
                printAbove(HumanMessages.startedLine(info, total: total, offset: offset))
            } else {
                redraw(throttled: false)
            }
        case .progress(let info, let bytes, let total, let speed):
            if let index = bars.firstIndex(where: { $0.info.id == info.id }) {
                bars[index] = (info, bytes, total, speed, nil)
            }
            redraw(throttled: true)
        case .summary(let summary):
            bars.removeAll()
            stream.write(region.clear(in: measure()))
            if isBatch {
                stream.writeLines(HumanMessages.summary(summary))
            } else if let unchecked = HumanMessages.notInSums(summary) {
                stream.writeLine("afget: \(unchecked)")
            }
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
        stream.write(region.clear(in: measure()))
        let failure = output.write(bytes: bytes)
        if failure == nil, output.isTerminal, let last = bytes.last, last != UInt8(ascii: "\n") {
            output.write("\n")
        }
        return failure
    }

    public func finish() {
        stream.write(region.clear(in: measure()))
    }

    private func remove(_ info: ItemInfo) {
        bars.removeAll { $0.info.id == info.id }
    }

    /// `line` fitted to one row where it can be, above the block, and the block under it.
    private func printAbove(_ line: MessageLine) {
        let size = measure()
        let text = region.printAbove(line.fitted(to: BarLayout(columns: size.columns, useColor: useColor).width), in: size)
        stream.write(text + frame(in: size))
    }

    private func redraw(throttled: Bool) {
        let now = monotonicSeconds()
        if throttled && now - lastDrawAt < Self.redrawInterval { return }
        let text = frame(in: measure())
        if !text.isEmpty { stream.write(text) }
    }

    /// What brings the block on screen up to date: nothing when no row changed.
    private func frame(in size: TerminalSize) -> String {
        lastDrawAt = monotonicSeconds()
        let items = bars.map {
            LiveBlock.Item(name: $0.info.lineName, bytes: $0.bytes, total: $0.total, speed: $0.speed, waiting: $0.waiting)
        }
        let lines = LiveBlock(size: size, useColor: useColor).lines(
            items: items, totalLine: isBatch ? totals.line : nil, shortTotalLine: isBatch ? totals.shortLine : nil)
        return region.draw(lines, in: size)
    }
}
