import Synchronization

/// One task's events on their way from the curl thread to the one task awaiting them, in
/// order, ending after the task's last event. Written for this one element type instead of
/// using AsyncStream: the standard library's stream runs unspecialized generic code, and its
/// yield was 15% of the curl thread's time in a batch of small files (perf).
final class TaskEvents: Sendable {
    private struct State {
        var buffered: [TaskEvent] = []
        var waiter: CheckedContinuation<TaskEvent?, Never>?
        var hasEnded = false
    }
    private let state = Mutex(State())

    /// Hands `event` to the waiting task, or keeps it until asked for. Nothing after a last event.
    func send(_ event: TaskEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<TaskEvent?, Never>? in
            guard !state.hasEnded else { return nil }
            state.hasEnded = event.isFinal
            guard let waiter = state.waiter else {
                state.buffered.append(event)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: event)
    }

    /// The next event, waiting for it; nil after the last.
    func next() async -> TaskEvent? {
        if let ready = state.withLock({ Self.take(from: &$0) }) { return ready }
        return await withCheckedContinuation { waiter in
            let ready = state.withLock { state -> TaskEvent?? in
                if let ready = Self.take(from: &state) { return ready }
                state.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }

    /// A kept event, `.some(nil)` once the last has been taken, or nil when there is none yet.
    private static func take(from state: inout State) -> TaskEvent?? {
        if !state.buffered.isEmpty { return state.buffered.removeFirst() }
        return state.hasEnded ? .some(nil) : nil
    }
}

/// A task's events, for `for await`.
public struct TaskEventSequence: AsyncSequence, Sendable {
    public typealias Element = TaskEvent
    let events: TaskEvents

    public struct AsyncIterator: AsyncIteratorProtocol {
        let events: TaskEvents

        public mutating func next() async -> TaskEvent? {
            await events.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(events: events)
    }
}
