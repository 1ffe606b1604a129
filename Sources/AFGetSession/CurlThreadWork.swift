import AFGetRequest
import AFGetSupport

/// Work that lives on the curl thread and runs in its loop: a batch's driver. Each turn of the
/// loop ends with one `pass`, after the turn's transfers ended and before the loop waits again,
/// so what follows a transfer's end (the item's next step, the next item's request) happens in
/// the same turn, without a hand-over to another thread or a lock on the way.
public protocol CurlThreadWork: AnyObject {
    /// One turn of the loop: `events` are those of the work's tasks since the last turn, in
    /// order. Returns false once the work is over; the loop then drops it, and its timers.
    func pass(_ events: [TaskEvent]) -> Bool
}

/// What creates and steers the tasks of a batch's items. The curl thread's own handle
/// (`CurlThread`) does it for work that runs there; tests of a job's steps post to nowhere.
public protocol TaskPosting: AnyObject {
    /// A task sending `request` whose final response's body goes to `body`; it starts once
    /// resumed, and its events reach the work's next pass.
    func task(with request: HTTPRequest, body: any ResponseBodyHandler, options: TransferOptions) -> TaskID
    /// Starts a new task.
    func resume(_ id: TaskID)
    /// Ends a task, canceled: its last event says so.
    func cancel(_ id: TaskID)
}

extension TaskPosting {
    /// A task whose response body is collected in memory, up to `bodyLimit` bytes.
    public func dataTask(with request: HTTPRequest, bodyLimit: Int, options: TransferOptions) -> TaskID {
        task(with: request, body: CollectedBody(limit: bodyLimit), options: options)
    }
}

/// The curl thread as the work running on it sees it: tasks created, started and ended at once
/// (no command crosses a thread), timers of the loop, and the wake-up other threads use when
/// they have something for the work. Used on the curl thread only.
public final class CurlThread: TaskPosting {
    private unowned let loop: CurlLoop

    init(loop: CurlLoop) {
        self.loop = loop
    }

    public func task(with request: HTTPRequest, body: any ResponseBodyHandler, options: TransferOptions) -> TaskID {
        loop.createWorkTask(with: request, body: body, options: options)
    }

    public func resume(_ id: TaskID) { loop.handle(.resume(id)) }

    public func cancel(_ id: TaskID) { loop.handle(.cancel(id)) }

    /// As `TaskManager.giveUp`, decided at once.
    public func giveUp(origin: String, failing failure: TransferFailure) {
        loop.handle(.giveUp(origin: origin, failure))
    }

    /// Calls `fire` in a turn of the loop `seconds` from now, before the work's pass; at once
    /// (with the reason) when the run stops meanwhile, or has stopped.
    public func after(seconds: Double, _ fire: @escaping (StopReason?) -> Void) {
        loop.timers.add(due: monotonicSeconds() + seconds, fire)
    }

    /// Brings the loop out of its wait for another pass, from any thread.
    public var wake: @Sendable () -> Void { loop.wake }
}

/// Messages other threads (the disk thread's commits) leave for the work on the curl thread,
/// which takes them in its next pass: the first message of a pass wakes the loop, the rest
/// ride along.
public final class WorkMailbox<Message: Sendable>: Sendable {
    private let messages = PthreadMutex<[Message]>([])
    private let wake: @Sendable () -> Void

    public init(waking thread: CurlThread) {
        wake = thread.wake
    }

    public func send(_ message: Message) {
        let first = messages.withLock { messages in
            messages.append(message)
            return messages.count == 1
        }
        if first { wake() }
    }

    /// Every message since the last call, in order (on the curl thread).
    public func takeAll() -> [Message] {
        messages.withLock { messages in
            defer { messages.removeAll(keepingCapacity: true) }
            return messages
        }
    }
}

/// The work's timers, earliest first. Used on the curl thread only.
struct WorkTimers {
    private var timers: [(due: Double, fire: (StopReason?) -> Void)] = []

    mutating func add(due: Double, _ fire: @escaping (StopReason?) -> Void) {
        let index = timers.firstIndex { $0.due > due } ?? timers.endIndex
        timers.insert((due, fire), at: index)
    }

    /// When the earliest is due.
    var nextDue: Double? { timers.first?.due }

    /// Fires those due by `now`, or every one when the run stopped (`reason`).
    mutating func fireDue(now: Double, stoppedBy reason: StopReason?) {
        let count = reason == nil ? (timers.firstIndex { $0.due > now } ?? timers.endIndex) : timers.endIndex
        guard count > 0 else { return }
        let due = timers.prefix(count)
        timers.removeFirst(count)
        for timer in due { timer.fire(reason) }
    }

    mutating func removeAll() { timers.removeAll() }
}
