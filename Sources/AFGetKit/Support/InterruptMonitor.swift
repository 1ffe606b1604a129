import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP (a closed terminal) into an orderly stop: the first runs
/// `onInterrupt` (which cancels the transfers, so they flush and checkpoint) and is remembered
/// for the exit status; a second one exits at once, which is safe because resume data is only
/// ever replaced atomically. A signal the process was started ignoring stays ignored, as shells
/// and `nohup` expect: `afget URL &` in a script is not stopped by Ctrl-C, `nohup afget` not by
/// a hangup. Owned by the command that runs; the handlers run on a queue of their own.
public final class InterruptMonitor {
    /// What the run reads: whether (and by which signal) it was interrupted.
    public let status = InterruptStatus()
    private var sources: [DispatchSourceSignal] = []

    public init(onInterrupt: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "afget.signals")
        let state = status
        for number in [SIGINT, SIGTERM, SIGHUP] where !Self.isIgnored(number) {
            signal(number, SIG_IGN)  // delivered through the dispatch source instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                switch state.record(number, at: monotonicSeconds()) {
                case .first: onInterrupt()
                case .sameStop: break
                case .again: _exit(InterruptMonitor.exitStatus(for: number))
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    static func exitStatus(for signal: Int32) -> Int32 {
        switch signal {
        case SIGTERM: ExitStatus.interruptedBySIGTERM
        case SIGHUP: ExitStatus.interruptedBySIGHUP
        default: ExitStatus.interruptedBySIGINT
        }
    }

    private static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        // SIG_DFL is a null handler; handlers are C function pointers, compared by address.
        guard let handler = current.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// The first signal received, shared between the signal queue and the run.
public final class InterruptStatus: Sendable {
    private let received = Mutex<(signal: Int32, at: Double)?>(nil)

    /// What a signal means for the run.
    enum Arrival {
        /// Stop in order: flush, checkpoint, say how to continue.
        case first
        /// Delivered with the first: `timeout` and a terminal's job control signal the process
        /// and then its group, and exiting on that copy lost the stop's checkpoint.
        case sameStop
        /// A person insisting: exit at once (resume data is only ever replaced atomically).
        case again
    }

    /// A signal within this many seconds of the first is the same stop.
    static let sameStopWindow = 1.0

    func record(_ signal: Int32, at now: Double) -> Arrival {
        received.withLock { state in
            guard let first = state else {
                state = (signal, now)
                return .first
            }
            return now - first.at < Self.sameStopWindow ? .sameStop : .again
        }
    }

    var first: Int32? {
        received.withLock { $0?.signal }
    }

    /// The exit status the interruption calls for (130, 143 or 129), if one happened.
    public var exitStatus: Int32? {
        first.map(InterruptMonitor.exitStatus(for:))
    }

    public var wasInterrupted: Bool { first != nil }
}
