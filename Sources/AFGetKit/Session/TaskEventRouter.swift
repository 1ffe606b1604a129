import Synchronization

/// Hands each task's events to the one job waiting for that task, so several downloads can run
/// at once over the single ordered stream the task manager reports on.
final class TaskEventRouter: Sendable {
    private let streams = Mutex<[TaskID: AsyncStream<TaskEvent>.Continuation]>([:])

    init(_ manager: TaskManager) {
        let events = manager.events
        Task { [self] in
            for await event in events {
                route(event)
            }
            streams.withLock { streams in
                streams.values.forEach { $0.finish() }
                streams.removeAll()
            }
        }
    }

    /// The events of task `id`, ending after its last one. Call before resuming the task.
    func events(for id: TaskID) -> AsyncStream<TaskEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TaskEvent.self)
        streams.withLock { $0[id] = continuation }
        return stream
    }

    private func route(_ event: TaskEvent) {
        let id = event.taskID
        let continuation = streams.withLock { streams in
            event.isFinal ? streams.removeValue(forKey: id) : streams[id]
        }
        continuation?.yield(event)
        if event.isFinal { continuation?.finish() }
    }
}
