import AFGetProgress
import AFGetSession
import AFGetSupport

/// Whether the redirect of item `item` (its id) to `target` is followed; asked on the curl
/// thread as the redirect arrives, so it answers without waiting.
typealias RedirectJudge = @Sendable (_ item: Int, _ target: String) -> Bool

/// What every download of a run shares: the task manager (and through it the run's stop),
/// where progress goes, the settings, and the disk thread that makes files durable.
struct DownloadEnvironment: Sendable {
    let manager: TaskManager
    let renderer: SharedRenderer
    private(set) var settings: DownloadSettings
    /// Flushes large files while they arrive, and runs the group commits.
    let disk: DiskThread
    /// Moves finished files into place, several to a flush.
    let commits: GroupCommit
    /// Empty files with no name left by items that ended without a body, for the next ones.
    let spares: SpareFiles
    /// Write buffers of finished transfers, for the next ones.
    let buffers: WriteBuffers
    /// The destination directories' names, listed once many items go into one.
    let listings = DirectoryListings()
    /// Whether an item's redirect is followed (a crawl's scope); nil follows every one.
    var redirectJudge: RedirectJudge?

    /// `itemsAhead`: how many items may hold a part file before their transfer ends (those
    /// transferring and those waiting at the gate): as many spare files as that replace them
    /// without going past the limit on open files, and as many write buffers of a size are kept.
    init(manager: TaskManager, renderer: SharedRenderer, settings: DownloadSettings, itemsAhead: Int) {
        self.manager = manager
        self.renderer = renderer
        self.settings = settings
        disk = DiskThread()
        commits = GroupCommit(disk: disk)
        spares = SpareFiles(limit: itemsAhead)
        buffers = WriteBuffers(limit: itemsAhead)
    }

    var cancellation: Cancellation { manager.cancellation }

    /// A fresh retry loop for one transfer (an item, or one segment of it).
    func retryLoop() -> RetryLoop {
        RetryLoop(policy: settings.retry, cancellation: cancellation, renderer: renderer, deadline: settings.transfer.deadline)
    }

    /// This environment for an item starting now: its transfers carry its `--max-time` deadline.
    func startingItem() -> DownloadEnvironment {
        var environment = self
        environment.settings.transfer = settings.transfer.startingItem()
        return environment
    }
}
