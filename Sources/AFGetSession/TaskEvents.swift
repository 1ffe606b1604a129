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
            route.destination.deliver([event])
        }
    }
}

/// One destination for the events of many tasks: a driver that runs many downloads reads them
/// all in one place, instead of a reader waiting on each task's own channel. The curl thread
/// hands over a pass's events together (`HeldEvents`).
public struct TaskEventRoute: Sendable {
    final class Destination: Sendable {
        let deliver: @Sendable ([TaskEvent]) -> Void
        /// The channel the events go to, when they go to one of type `TaskEvent`.
        let channel: EventChannel<TaskEvent>?

        init(deliver: @escaping @Sendable ([TaskEvent]) -> Void, channel: EventChannel<TaskEvent>?) {
            self.deliver = deliver
            self.channel = channel
        }
    }
    let destination: Destination

    /// `deliver` is given events in order, several at a time.
    public init(_ deliver: @escaping @Sendable ([TaskEvent]) -> Void) {
        destination = Destination(deliver: deliver, channel: nil)
    }

    /// A route into `channel`, from which a running task can be handed on to another reader
    /// (`handOver`).
    package init(_ channel: EventChannel<TaskEvent>) {
        destination = Destination(deliver: { channel.send(contentsOf: $0) }, channel: channel)
    }

    /// Whether `handOver` can give a task's further events to another reader.
    public var handsOver: Bool { destination.channel != nil }

    /// Task `id` with its further events, read from the route's channel until its last one:
    /// for a reader that takes over while the route's own reader waits for it.
    public func handOver(_ id: TaskID) -> SessionTask? {
        destination.channel.map { SessionTask(id: id, events: TaskEventSequence(channel: $0)) }
    }
}

/// The events of routed tasks, held by the curl thread during one pass of its loop and handed
/// to each route together at the pass's end: a driver reading many tasks' events then wakes
/// once per pass, not once per event. Used on the curl thread only.
final class HeldEvents {
    private var held: [(destination: TaskEventRoute.Destination, events: [TaskEvent])] = []

    func add(_ event: TaskEvent, to route: TaskEventRoute) {
        if let index = held.firstIndex(where: { $0.destination === route.destination }) {
            held[index].events.append(event)
        } else {
            held.append((route.destination, [event]))
        }
    }

    /// Hands every held event to its route.
    func deliver() {
        guard !held.isEmpty else { return }
        for (destination, events) in held { destination.deliver(events) }
        held.removeAll(keepingCapacity: true)
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
