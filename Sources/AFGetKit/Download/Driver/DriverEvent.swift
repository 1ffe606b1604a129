import AFGetSession
import AFGetSupport

/// What reaches the download driver, from any thread, on its one channel.
enum DriverEvent: Sendable {
    /// An event of a task one of the driver's jobs posted.
    case task(TaskEvent)
    /// A job's wait before its next attempt is over (or the run stopped during it).
    case retryDue(job: Int, StopReason?)
    /// A segment's wait before its retry is over (or the run stopped during it); the segment
    /// by its start.
    case segmentRetryDue(job: Int, segment: Int64, StopReason?)
    /// The group commit moved a job's file into place, or failed to.
    case committed(job: Int, TransferFailure?)
    /// Not an item's: the feed has items again after it had none, or the run is stopping.
    case checkAgain
}
