import AFGetRequest
import AFGetSupport
import CurlCore

/// Identifies a task within one task manager.
public struct TaskID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public var description: String { "task \(rawValue)" }
}

/// Byte counters of a task at one moment.
public struct TransferProgress: Sendable, Equatable {
    /// Body bytes received from the final response.
    public var received: Int64 = 0
    /// Of those, the bytes a download has handed to its file (the rest are still buffered).
    public var written: Int64 = 0
    /// The final response's announced body length, when known.
    public var expected: Int64?
    public var sent: Int64 = 0
    public var expectedToSend: Int64?
    /// When the task's first request was handed to libcurl (monotonic seconds), after any wait
    /// at the `-j` gate: how long the transfer itself has taken, not its time in the queue.
    public var startedAt: Double = 0

    public init() {}
}

/// What a finished task hands back.
public struct TaskResponse: Sendable, Equatable {
    public var head: ResponseHead
    /// The URL of the last request, after redirects.
    public var finalURL: String
    public var progress: TransferProgress
    /// The collected body of a data or upload task.
    public var body: [UInt8]

    /// Last-Modified as seconds since 1970, when the server sent one: read when asked for, off
    /// the curl thread, and only by the downloads that set a file's time from it.
    public var lastModified: Int64? {
        head.value(of: "Last-Modified").flatMap(HTTPDate.seconds(from:))
    }
}

/// What the task manager reports, in order per task, on its event stream.
public enum TaskEvent: Sendable, Equatable {
    /// The transfer has waited `TransferContext.connectingNoticeDelay` for a connection to
    /// `host` (host:port, or the proxy's), and still waits: said once per request, and only
    /// when connecting takes that long.
    case connecting(TaskID, host: String)
    /// The connection said to be awaited (`connecting`) was made.
    case connected(TaskID)
    /// The final response's headers arrived and its body is starting.
    case started(TaskID, ResponseHead)
    /// Counters, a few times a second while the task runs.
    case progress(TaskID, TransferProgress)
    case suspended(TaskID)
    case resumed(TaskID)
    case redirected(TaskID, from: String, to: String)
    /// A line of request or response headers (secrets masked), when verbose.
    case verbose(TaskID, String)
    /// The exchange finished; the status may still be an HTTP error for the caller to judge.
    case completed(TaskID, TaskResponse)
    case failed(TaskID, TransferFailure, TransferProgress)
    /// The task was canceled before it finished: because the run stopped (the reason), or
    /// because its owner canceled it (nil).
    case canceled(TaskID, StopReason?, TransferProgress)

    /// The task's last event: completed, failed or canceled.
    public var isFinal: Bool {
        switch self {
        case .completed, .failed, .canceled: true
        default: false
        }
    }

    public var taskID: TaskID {
        switch self {
        case .connecting(let id, _), .connected(let id), .started(let id, _), .progress(let id, _), .suspended(let id),
            .resumed(let id),
            .redirected(let id, _, _), .verbose(let id, _), .completed(let id, _), .failed(let id, _, _),
            .canceled(let id, _, _):
            id
        }
    }
}

extension TaskEvent {
    /// The line a task's owner shows for this event, the same for every kind of transfer:
    /// verbose header lines (already masked), and with `verbose` each redirect followed, its
    /// URL's password removed.
    public func notice(verbose: Bool) -> String? {
        switch self {
        case .verbose(_, let line):
            line
        case .redirected(_, _, let target) where verbose:
            "* following redirect to \(removingPassword(from: target))"
        default:
            nil
        }
    }
}
