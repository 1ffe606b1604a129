import AFGetProgress
import AFGetSession
import AFGetSupport

/// One attempt of an exchange as a value: each event of its task is answered with what to tell
/// the renderer and, at the last, how the attempt ended. Its reader (`ExchangeRunner`) only
/// passes the events on; the rules are tested without a socket.
struct ExchangeAttempt {
    let info: ItemInfo
    /// The request has a body: progress counts bytes sent, not received.
    let sending: Bool
    let verbose: Bool
    private var started = false
    private var speed = SpeedEstimator()

    init(info: ItemInfo, sending: Bool, verbose: Bool) {
        self.info = info
        self.sending = sending
        self.verbose = verbose
    }

    /// How an attempt ended: a final response, or a failure.
    struct Ending {
        let response: TaskResponse?
        let failure: TransferFailure?
    }

    /// `event` at monotonic time `now`: the renderer's events it gives, and the ending once
    /// it is the task's last.
    mutating func take(_ event: TaskEvent, at now: Double) -> (said: [ItemEvent], ending: Ending?) {
        switch event {
        case .started(_, let head):
            // An upload's bar counts what is sent, told by its progress.
            guard !sending, !started else { return ([], nil) }
            started = true
            return ([.started(info, total: head.contentLength, offset: nil)], nil)
        case .progress(_, let progress):
            let bytes = sending ? progress.sent : progress.received
            let total = sending ? progress.expectedToSend : progress.expected
            var said: [ItemEvent] = []
            if !started {
                started = true
                said.append(.started(info, total: total, offset: nil))
            }
            speed.add(bytes: bytes, at: now)
            said.append(.progress(info, bytes: bytes, total: total, speed: speed.bytesPerSecond))
            return (said, nil)
        case .connecting(_, let host):
            return ([.connecting(info, host: host)], nil)
        case .connected:
            return ([.connected(info)], nil)
        case .verbose, .redirected, .suspended, .resumed:
            return (event.notice(verbose: verbose).map { [.notice($0)] } ?? [], nil)
        case .completed(_, let response):
            return ([], Ending(response: response, failure: nil))
        case .failed(_, let failure, _):
            return ([], Ending(response: nil, failure: failure))
        case .canceled:
            return ([], Ending(response: nil, failure: TransferFailure(.stop(.canceled))))
        }
    }
}
