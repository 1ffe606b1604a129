import AFGetSession
import AFGetSupport

/// What reaches the download driver, from any thread, on its one channel.
enum DriverEvent: Sendable {
    /// An event of a task one of the driver's jobs posted.
    case task(TaskEvent)
    /// A job's wait before its next attempt is over (or the run stopped during it).
    case retryDue(job: Int, StopReason?)
    /// The group commit moved a job's file into place, or failed to.
    case committed(job: Int, TransferFailure?)
    /// An item running in a task of its own (`SoloDownload`) passed a milestone.
    case milestone(ItemMilestones.Milestone)
    /// An item running in a task of its own ended; the milestones it did not pass are passed.
    case soloEnded(ItemRecord, ItemMilestones, host: String)
    /// An item running in a task of its own waits as its host asked (Retry-After).
    case hostAskedToWait(host: String, seconds: Double)
    /// Not an item's: the feed has items again after it had none, or the run is stopping.
    case checkAgain
}
