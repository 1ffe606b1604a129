import AFGetSupport

/// Where the curl thread sends one task's events: a channel of the task's own, which ends with
/// the task's last event, or a route many tasks share (each event names its task).
enum TaskEvents: Sendable {
    case own(EventChannel<TaskEvent>)
    case routed(TaskEventRoute)

    func send(_ event: TaskEvent) {
        switch self {
        case .own(let channel):
            channel.send(event)
            if event.isFinal { channel.finish() }
        case .routed(let route):
            route.deliver(event)
        }
    }
}

/// One destination for the events of many tasks: a driver that runs many downloads reads them
/// all in one place, instead of a reader waiting on each task's own channel.
public struct TaskEventRoute: Sendable {
    let deliver: @Sendable (TaskEvent) -> Void
    /// The channel the events go to, when they go to one of type `TaskEvent`.
    private let channel: EventChannel<TaskEvent>?

    public init(_ deliver: @escaping @Sendable (TaskEvent) -> Void) {
        self.deliver = deliver
        channel = nil
    }

    /// A route into `channel`, from which a running task can be handed on to another reader
    /// (`handOver`).
    package init(_ channel: EventChannel<TaskEvent>) {
        deliver = { channel.send($0) }
        self.channel = channel
    }

    /// Whether `handOver` can give a task's further events to another reader.
    public var handsOver: Bool { channel != nil }

    /// Task `id` with its further events, read from the route's channel until its last one:
    /// for a reader that takes over while the route's own reader waits for it.
    public func handOver(_ id: TaskID) -> SessionTask? {
        channel.map { SessionTask(id: id, events: TaskEventSequence(channel: $0)) }
    }
}

/// A task's events, for `for await`, ending after its last (completed, failed or canceled).
public struct TaskEventSequence: AsyncSequence, Sendable {
    public typealias Element = TaskEvent
    let channel: EventChannel<TaskEvent>

    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: EventChannel<TaskEvent>
        var hasEnded = false

        public mutating func next() async -> TaskEvent? {
            // A route's channel goes on after the task's last event: the sequence does not.
            guard !hasEnded, let event = await channel.next() else { return nil }
            hasEnded = event.isFinal
            return event
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(channel: channel)
    }
}
