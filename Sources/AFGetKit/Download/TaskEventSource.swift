/// The task manager's event stream, read by one consumer at a time: the runner hands it to
/// each job in turn.
final class TaskEventSource {
    private var iterator: AsyncStream<TaskEvent>.Iterator

    init(_ manager: TaskManager) {
        iterator = manager.events.makeAsyncIterator()
    }

    /// The next event of task `id`; events of other tasks are dropped. nil when the stream ended.
    func next(for id: TaskID) async -> TaskEvent? {
        while let event = await iterator.next() {
            if event.taskID == id { return event }
        }
        return nil
    }
}
