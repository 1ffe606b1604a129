import AFGetSession
import AFGetSupport

/// What a job asks its driver for after each call: the job touches files and posts requests
/// itself, but waits for nothing; the driver does the waiting, for many jobs at once.
enum JobStep {
    /// A task of the job's is on the network: its events go to `DownloadJob.handle`.
    case awaitingTask(TaskID)
    /// Wait this long (the run's stop ends the wait early), then `retryDue(stoppedBy:)`.
    case waitToRetry(seconds: Double)
    /// The server turned the connection away (it takes no more connections from this client):
    /// wait for a place among its host's items, then `retryDue(stoppedBy:)`; when none of the
    /// host's other items is connected, `noHostPlace()`, which retries after a backoff.
    case waitForHostPlace
    /// Hand the finished file to the group commit, then `committed(_:)` with its answer.
    case commit(descriptor: Int32, PartFile.Move)
    /// A split download's segments run: follow the tasks they posted (their events go to
    /// `DownloadJob.handle` too) and time their waits (each ends in `segmentRetryDue`).
    case segments(posted: [TaskID], waits: [SegmentedTransfer.RetryWait])
    /// Nothing new: the job still waits for what it asked for before.
    case waiting
    case ended(ItemOutcome)
}

extension DownloadJob {
    /// What a job waits for between its driver's calls.
    enum Awaiting {
        /// Not begun.
        case start
        /// The events of an attempt's task.
        case attempt(AttemptState)
        /// A HEAD request's answer: whether a part already holds the whole file (416 without a
        /// length), and the response of the attempt that led to it.
        case wholePartConfirmation(TaskID, size: Int64, response: TaskResponse?)
        /// A HEAD request's answer: the length of the server's copy of a file `--on-exists update`
        /// was told is not modified.
        case sizeConfirmation(TaskID)
        /// The end of a retry's wait.
        case retry
        /// A place among its host's items, after the server turned the connection away: the
        /// failure to retry after a backoff if none comes.
        case hostPlace(RetryLoop.Problem)
        /// The segments' tasks and waits, and the bytes they held as they started.
        case segments(SegmentedTransfer, heldAtStart: Int64)
        /// The move into place.
        case commit(Finishing)
        /// Nothing: the job ended.
        case nothing
    }

    /// A finished file on its way into place: what its done line and record say once it is there.
    struct Finishing {
        let size: Int64
        /// The item's time, from its first request to its last byte.
        let seconds: Double
    }
}
