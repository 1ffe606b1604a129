import Synchronization

/// Why a run stops before its work is done.
public enum StopReason: Sendable, Equatable {
    /// SIGINT (Ctrl-C), SIGTERM or SIGHUP: data is kept, and the exit status names the signal.
    case signal(Int32)
    /// `--fail-fast`: an item failed, so nothing else runs.
    case failFast
    /// Standard output's reader went away (`afget -o - URL | head -c 10`): nothing more can be
    /// delivered, so the run ends quietly, as a program that SIGPIPE ends does.
    case outputClosed
}

/// The run's stop, as a value: set once with its reason, then delivered to everything that
/// waits — the curl thread cancels every task (each reports `.canceled` with the reason), a
/// retry's wait ends at once, and libcurl's callbacks end their transfer at their next piece
/// of work (a decompression bomb decoded for seconds stops too). Shared by every thread.
public final class Cancellation: Sendable {
    private struct State {
        var reason: StopReason?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
        var onStop: [@Sendable (StopReason) -> Void] = []
    }

    private let state = PthreadMutex(State())
    /// Read on the curl thread for every piece of a body: an atomic load, no lock.
    private let isStopped = Atomic(false)

    public init() {}

    /// Stops the run for `reason`; only the first reason counts.
    public func stop(_ reason: StopReason) {
        typealias Woken = (waiters: [CheckedContinuation<Void, Never>], actions: [@Sendable (StopReason) -> Void])
        let woken = state.withLock { state -> Woken? in
            guard state.reason == nil else { return nil }
            state.reason = reason
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), state.onStop)
        }
        guard let woken else { return }
        isStopped.store(true, ordering: .releasing)
        woken.actions.forEach { $0(reason) }
        woken.waiters.forEach { $0.resume() }
    }

    /// Why the run stopped, once it has.
    public var reason: StopReason? {
        state.withLock { $0.reason }
    }

    /// Whether the run has stopped: cheap enough for a loop over a body or a file.
    public var isRequested: Bool {
        isStopped.load(ordering: .acquiring)
    }

    /// Runs `action` when the run stops (at once if it already has).
    package func onStop(_ action: @escaping @Sendable (StopReason) -> Void) {
        let stoppedAlready = state.withLock { state -> StopReason? in
            if state.reason == nil { state.onStop.append(action) }
            return state.reason
        }
        if let stoppedAlready { action(stoppedAlready) }
    }

    /// Waits `seconds`, or less when the run stops meanwhile; returns the reason if it did.
    package func wait(seconds: Double) async -> StopReason? {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            group.addTask { await self.stopped() }
            await group.next()
            group.cancelAll()
        }
        return reason
    }

    /// Returns once the run stops, or when the calling task is canceled.
    private func stopped() async {
        let key = state.withLock { state -> Int in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.reason == nil, !Task.isCancelled else { return true }
                    state.waiters[key] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: key) }?.resume()
        }
    }
}
