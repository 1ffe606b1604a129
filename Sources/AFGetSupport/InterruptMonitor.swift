import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP (a closed terminal) into an orderly stop: the first stops
/// the run's `Cancellation` with the signal as its reason (the transfers end, flush and
/// checkpoint, waits end at once, and the exit status names the signal); a second one exits at
/// once, which is safe because resume data is only ever replaced atomically. A signal the
/// process was started ignoring stays ignored, as shells and `nohup` expect: `afget URL &` in a
/// script is not stopped by Ctrl-C, `nohup afget` not by a hangup. Owned by the command that
/// runs; the handlers run on a queue of their own.
public final class InterruptMonitor {
    private var sources: [DispatchSourceSignal] = []

    public init(stopping cancellation: Cancellation) {
        let queue = DispatchQueue(label: "afget.signals")
        let arrivals = SignalArrivals()
        for number in [SIGINT, SIGTERM, SIGHUP] where !Self.isIgnored(number) {
            signal(number, SIG_IGN)  // delivered through the dispatch source instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                switch arrivals.record(at: monotonicSeconds()) {
                case .first: cancellation.stop(.signal(number))
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

    /// The exit status for a run stopped by `signal`: 130, 143 or 129.
    public static func exitStatus(for signal: Int32) -> Int32 {
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

extension Cancellation {
    /// The exit status the run's stop calls for, when a signal (130, 143 or 129) or a closed
    /// standard output (141) stopped it.
    public var exitStatus: Int32? {
        switch reason {
        case .signal(let number): InterruptMonitor.exitStatus(for: number)
        case .outputClosed: ExitStatus.outputClosed
        case .failFast, nil: nil
        }
    }
}

/// When signals arrive, on the signal queue.
final class SignalArrivals: Sendable {
    private let firstAt = PthreadMutex<Double?>(nil)

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

    func record(at now: Double) -> Arrival {
        firstAt.withLock { first in
            guard let at = first else {
                first = now
                return .first
            }
            return now - at < Self.sameStopWindow ? .sameStop : .again
        }
    }
}
