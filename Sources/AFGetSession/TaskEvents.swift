import AFGetSupport

/// Where the curl thread sends one task's events; they end with the task's last event.
struct TaskEvents: Sendable {
    let channel = EventChannel<TaskEvent>()

    func send(_ event: TaskEvent) {
        channel.send(event)
        if event.isFinal { channel.finish() }
    }
}

/// A task's events, for `for await`.
public struct TaskEventSequence: AsyncSequence, Sendable {
    public typealias Element = TaskEvent
    let channel: EventChannel<TaskEvent>

    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: EventChannel<TaskEvent>

        public mutating func next() async -> TaskEvent? {
            await channel.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(channel: channel)
    }
}
