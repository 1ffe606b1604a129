import AFGetSupport

/// Progress for logs and pipes: whole lines only (no carriage returns). A single download gets
/// a start line, a status line every few seconds and a done line; a batch gets a line per
/// finished or failed item and a total line every few seconds.
public final class LineRenderer: ProgressRenderer {
    private let stream: OutputStream
    private let statusInterval: Double
    private let isBatch: Bool
    private var lastStatusAt: [Int: Double] = [:]
    private var totals = BatchTotals()
    private var lastTotalAt: Double?
    private let output = PassOutput()

    public init(stream: OutputStream = .standardError, statusInterval: Double = 5, showsSummary: Bool) {
        self.stream = stream
        self.statusInterval = statusInterval
        isBatch = showsSummary
    }

    public func handle(_ event: ItemEvent) {
        totals.record(event)
        if let line = HumanMessages.line(for: event, inBatch: isBatch) {
            if let ended = event.endedItem { lastStatusAt[ended.id] = nil }
            output.writeLine(to: stream, line)
            return
        }
        switch event {
        case .connecting(let info, let host):
            output.writeLine(to: stream, HumanMessages.connecting(info, to: host))
        case .started(let info, let total, let offset):
            guard !isBatch else { return }
            output.writeLine(to: stream, HumanMessages.started(info, total: total, offset: offset))
            lastStatusAt[info.id] = monotonicSeconds()
        case .progress(let info, let bytes, let total, let speed):
            let now = monotonicSeconds()
            if isBatch {
                guard now - (lastTotalAt ?? now) >= statusInterval || lastTotalAt == nil else { return }
                if lastTotalAt != nil { output.writeLine(to: stream, "afget: " + totals.line) }
                lastTotalAt = now
                return
            }
            guard now - (lastStatusAt[info.id] ?? 0) >= statusInterval else { return }
            // The whole body is in: the done line follows.
            if let total, bytes >= total { return }
            lastStatusAt[info.id] = now
            output.writeLine(to: stream, status(info, bytes: bytes, total: total, speed: speed))
        case .summary(let summary):
            if isBatch {
                output.writeLines(to: stream, HumanMessages.summary(summary))
            } else if let unchecked = HumanMessages.notInSums(summary) {
                output.writeLine(to: stream, "afget: \(unchecked)")
            }
        default:
            break
        }
    }

    public func holdWrites() { output.hold() }

    public func releaseWrites() { output.release() }

    public func finish() { output.release() }

    private func status(_ info: ItemInfo, bytes: Int64, total: Int64?, speed: Double) -> String {
        var parts = [Formatting.bytes(bytes)]
        if let total, total > 0 {
            parts = ["\(Formatting.percent(bytes, of: total))%", "\(Formatting.bytes(bytes)) of \(Formatting.bytes(total))"]
        }
        parts.append(Formatting.speed(speed))
        if let eta = Formatting.eta(bytes: bytes, total: total, speed: speed) { parts.append(eta) }
        return "\(info.lineName): " + parts.joined(separator: ", ")
    }
}
