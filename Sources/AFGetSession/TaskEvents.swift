import AFGetSupport

/// Where the curl thread sends one task's events: a channel of the task's own, which ends with
/// the task's last event, or the work running on the curl thread (`CurlThreadWork`), which
/// takes every task's events of a turn together in its pass.
enum TaskEvents {
    case own(EventChannel<TaskEvent>)
    case work(WorkEvents)

    func send(_ event: TaskEvent) {
        switch self {
        case .own(let channel):
            channel.send(event)
            if event.isFinal { channel.finish() }
        case .work(let held):
            held.add(event)
        }
    }
}

/// The events of the work's tasks, held by the curl thread during one turn of its loop and
/// handed to the work's pass together. Used on the curl thread only.
final class WorkEvents {
    private var held: [TaskEvent] = []

    var isEmpty: Bool { held.isEmpty }

    func add(_ event: TaskEvent) { held.append(event) }

    /// Every event since the last call, in order.
    func takeAll() -> [TaskEvent] {
        defer { held.removeAll(keepingCapacity: true) }
        return held
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
