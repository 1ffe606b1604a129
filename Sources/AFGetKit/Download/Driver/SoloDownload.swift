import AFGetSession
import AFGetSupport

/// A job in a task of its own, for an item that awaits work of its own while it runs: a split
/// download (`-s`), whose segments run their own tasks and take over its first request's task,
/// or `-c` adopting a file another tool left. Its steps are performed here as the batch driver
/// performs them; its milestones and record go to the batch driver's events.
struct SoloDownload {
    let environment: DownloadEnvironment
    let events: EventChannel<DriverEvent>
    /// The item's host, for a Retry-After that holds the host's other items.
    let host: String

    /// Runs `job` to its end. Its tasks' events come on a channel of its own, from which the
    /// first range's task can be handed over to the segments.
    func run(_ job: DownloadJob, taskEvents: EventChannel<TaskEvent>, milestones: inout ItemMilestones) async {
        var step = job.begin()
        while true {
            for milestone in milestones.passed(job.phases) { events.send(.milestone(milestone)) }
            switch step {
            case .awaitingTask, .waiting:
                // The job sets aside events of tasks it no longer awaits.
                guard let event = await taskEvents.next() else { return }
                step = job.handle(event)
            case .waitToRetry(let seconds, let hostAsked):
                if hostAsked { events.send(.hostAskedToWait(host: host, seconds: seconds)) }
                step = job.retryDue(stoppedBy: await environment.cancellation.wait(seconds: seconds))
            case .commit(let descriptor, let move):
                step = job.committed(await environment.commits.move(descriptor, from: move.source, to: move.destination))
            case .runSegments:
                step = await job.runSegments()
            case .ended:
                return
            }
        }
    }
}
