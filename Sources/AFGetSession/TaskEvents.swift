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

        init(deliver: @escaping @Sendable ([TaskEvent]) -> Void) {
            self.deliver = deliver
        }
    }
    let destination: Destination

    /// `deliver` is given events in order, several at a time.
    public init(_ deliver: @escaping @Sendable ([TaskEvent]) -> Void) {
        destination = Destination(deliver: deliver)
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

        /// The task's own channel ends after its last event.
        public mutating func next() async -> TaskEvent? {
            await channel.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(channel: channel)
    }
}
