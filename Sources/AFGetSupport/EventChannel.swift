import Synchronization

/// Events from any thread to the one task reading them, in order, until `finish`. Used instead
/// of AsyncStream, whose unspecialized generic code showed in the curl thread's profile
/// (docs/performance.md). Its methods are inlinable so that modules sending or reading events
/// can specialize them for their type (the runtime is still asked for the channel's metadata).
/// The class is `public`, its members `package`, for the same reason as `PthreadMutex`'s.
public final class EventChannel<Element: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var buffered: [Element] = []
        @usableFromInline var waiter: CheckedContinuation<Element?, Never>?
        @usableFromInline var hasEnded = false

        @inlinable init() {}
    }
    @usableFromInline let state = PthreadMutex(State())

    @inlinable package init() {}

    /// Hands `event` to the waiting reader, or keeps it until asked for; dropped after `finish`.
    @inlinable package func send(_ event: Element) {
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

    /// Hands `events` over in order, waking the reader once.
    @inlinable package func send(contentsOf events: [Element]) {
        guard let first = events.first else { return }
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            guard !state.hasEnded else { return nil }
            guard let waiter = state.waiter else {
                state.buffered.append(contentsOf: events)
                return nil
            }
            state.waiter = nil
            state.buffered.append(contentsOf: events.dropFirst())
            return waiter
        }
        waiter?.resume(returning: first)
    }

    /// No more events: the reader gets those kept, then nil.
    @inlinable package func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            state.hasEnded = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next event, waiting for it; nil once finished and drained.
    @inlinable package func next() async -> Element? {
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

    /// Every event kept, waiting for one when there is none: a reader of many senders' events
    /// wakes once for all that arrived meanwhile. Nil once finished and drained.
    @inlinable package func nextBatch() async -> [Element]? {
        let kept = state.withLock { state -> [Element]?? in
            if !state.buffered.isEmpty {
                defer { state.buffered = [] }
                return state.buffered
            }
            return state.hasEnded ? .some(nil) : nil
        }
        if let kept { return kept }
        return await next().map { [$0] }
    }

    /// A kept event, `.some(nil)` at the end, or nil when there is none yet.
    @inlinable static func take(from state: inout State) -> Element?? {
        if !state.buffered.isEmpty { return state.buffered.removeFirst() }
        return state.hasEnded ? .some(nil) : nil
    }
}

/// Public where AsyncSequence asks for it, the class being public.
extension EventChannel: AsyncSequence {
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let channel: EventChannel

        @inlinable init(channel: EventChannel) {
            self.channel = channel
        }

        @inlinable public mutating func next() async -> Element? {
            await channel.next()
        }
    }

    @inlinable public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(channel: self)
    }
}
