import Synchronization

/// Events from any thread to the one task reading them, in order, until `finish`. Used instead
/// of AsyncStream: the standard library's stream runs unspecialized generic code, and its yield
/// was 15% of the curl thread's time in a batch of small files (perf); this one is specialized
/// for each element type like any generic of this module.
package final class EventChannel<Element: Sendable>: Sendable {
    private struct State {
        var buffered: [Element] = []
        var waiter: CheckedContinuation<Element?, Never>?
        var hasEnded = false
    }
    private let state = Mutex(State())

    package init() {}

    /// Hands `event` to the waiting reader, or keeps it until asked for; dropped after `finish`.
    package func send(_ event: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            guard !state.hasEnded else { return nil }
            guard let waiter = state.waiter else {
                state.buffered.append(event)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: event)
    }

    /// No more events: the reader gets those kept, then nil.
    package func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            state.hasEnded = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next event, waiting for it; nil once finished and drained.
    package func next() async -> Element? {
        if let ready = state.withLock({ Self.take(from: &$0) }) { return ready }
        return await withCheckedContinuation { waiter in
            let ready = state.withLock { state -> Element?? in
                if let ready = Self.take(from: &state) { return ready }
                state.waiter = waiter
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }

    /// A kept event, `.some(nil)` at the end, or nil when there is none yet.
    private static func take(from state: inout State) -> Element?? {
        if !state.buffered.isEmpty { return state.buffered.removeFirst() }
        return state.hasEnded ? .some(nil) : nil
    }
}

extension EventChannel: AsyncSequence {
    package struct AsyncIterator: AsyncIteratorProtocol {
        let channel: EventChannel

        package mutating func next() async -> Element? {
            await channel.next()
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(channel: self)
    }
}
