import AFGetProgress
import AFGetSupport

/// One file's progress from its parts' requests: each part's exchange reports as an item of
/// its own (its number as id), and the relay shows the file as one item — bytes of the parts
/// acknowledged plus those of the parts in flight, against the file's size. Requests that are
/// no part (id 0: create, list, complete) say only their retries and notices.
final class PartProgressRelay: ProgressRenderer {
    private let target: SharedRenderer
    private let file: ItemInfo
    private let total: Int64
    /// Bytes of the parts acknowledged, those of earlier runs among them.
    private var acknowledged: Int64
    /// Those of earlier runs: where the file's bar starts.
    private let continuedAt: Int64
    private var inFlight: [Int: Int64] = [:]
    private var started = false
    private var speed = SpeedEstimator()

    init(target: SharedRenderer, file: ItemInfo, total: Int64, acknowledged: Int64) {
        self.target = target
        self.file = file
        self.total = total
        self.acknowledged = acknowledged
        continuedAt = acknowledged
    }

    var interest: @Sendable (ItemEvent) -> Bool { { _ in true } }

    func handle(_ event: ItemEvent) {
        switch event {
        case .progress(let part, let bytes, _, _) where part.id > 0:
            inFlight[part.id] = bytes
            if !started {
                started = true
                target.handle(.started(file, total: total, offset: continuedAt > 0 ? continuedAt : nil))
            }
            let sent = acknowledged + inFlight.values.reduce(0, +)
            speed.add(bytes: sent, at: monotonicSeconds())
            target.handle(.progress(file, bytes: sent, total: total, speed: speed.bytesPerSecond))
        case .done(let part, let bytes, _, _, _) where part.id > 0:
            // Sent by the uploader when the store acknowledged the part.
            if !started {
                started = true
                target.handle(.started(file, total: total, offset: continuedAt > 0 ? continuedAt : nil))
            }
            inFlight[part.id] = nil
            acknowledged += bytes
        case .retrying(let request, let attempt, let delay, let failure):
            let said = request.id > 0 ? failure.noting(.at("part \(request.id)")) : failure
            target.handle(.retrying(file, attempt: attempt, delay: delay, failure: said))
        case .notice:
            target.handle(event)
        default:
            break
        }
    }

    func writeOutput(_ bytes: [UInt8], of item: ItemInfo, to output: OutputStream) -> Int32? {
        target.writeOutput(bytes, of: file, to: output)
    }

    func finish() {}
}
