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

    public init(stream: OutputStream = .standardError, statusInterval: Double = 5, showsSummary: Bool) {
        self.stream = stream
        self.statusInterval = statusInterval
        isBatch = showsSummary
    }

    public func handle(_ event: ItemEvent) {
        totals.record(event)
        switch event {
        case .queued:
            break
        case .started(let info, let total, let offset):
            guard !isBatch else { return }
            let size = total.map { " (\(Formatting.bytes($0)))" } ?? ""
            let verb = offset.map { "continuing at \(Formatting.bytes($0))" } ?? "started"
            stream.writeLine("\(info.lineName): \(verb)\(size) from \(info.url)")
            lastStatusAt[info.id] = monotonicSeconds()
        case .progress(let info, let bytes, let total, let speed):
            let now = monotonicSeconds()
            if isBatch {
                guard now - (lastTotalAt ?? now) >= statusInterval || lastTotalAt == nil else { return }
                if lastTotalAt != nil { stream.writeLine("afget: " + totals.line) }
                lastTotalAt = now
                return
            }
            guard now - (lastStatusAt[info.id] ?? 0) >= statusInterval else { return }
            // The whole body is in: the done line follows.
            if let total, bytes >= total { return }
            lastStatusAt[info.id] = now
            stream.writeLine(status(info, bytes: bytes, total: total, speed: speed))
        case .done(let info, let bytes, let transferred, let seconds, _):
            lastStatusAt[info.id] = nil
            stream.writeLine(HumanMessages.done(info, bytes: bytes, transferred: transferred, seconds: seconds))
        case .skipped(let info, let reason):
            stream.writeLine(HumanMessages.skipped(info, reason: reason))
        case .failed(let info, let failure):
            lastStatusAt[info.id] = nil
            stream.writeLine(HumanMessages.failure(failure))
        case .retrying(let info, let attempt, let delay, let reason):
            stream.writeLine(HumanMessages.retrying(info, attempt: attempt, delay: delay, reason: reason))
        case .restarting(let info, let reason):
            stream.writeLine(HumanMessages.restarting(info, reason: reason))
        case .notice(let text):
            stream.writeLine(text)
        case .interrupted(_, let dataKept):
            stream.writeLine(HumanMessages.interrupted(dataKept: dataKept))
        case .summary(let summary):
            if isBatch { stream.writeLine(HumanMessages.summary(summary)) }
        }
    }

    public func finish() {}

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
