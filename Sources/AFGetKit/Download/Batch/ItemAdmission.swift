import AFGetSession
import AFGetSupport

/// How many of a batch's items may be under way, and whether the next may start: up to
/// `concurrency` transferring, then (with a gate) as many more with their requests waiting at
/// the gate, and beyond the transfers some finished files being moved into place. The items that
/// wait at the gate start only once the first `concurrency` have posted their requests, so that
/// those take the gate's places and the gate starts the rest in list order. The one place `-j`
/// is decided: the places within the limit on open files (`DescriptorBudget`), and the gate the
/// curl thread keeps them with.
struct ItemAdmission {
    let concurrency: Int
    let waitingAtGate: Int
    /// Finished items moving their files into place, beyond the transfers.
    let extraCommits: Int
    /// The curl thread's bound on transfers at once, for the items' requests to wait at.
    private(set) var gate: TransferGate?
    /// The limit on open files, when it allowed fewer transfers than `-j` asked.
    private(set) var narrowedByOpenFileLimit: Int?

    /// Items started and not yet finished.
    private(set) var running = 0
    /// Items whose transfer has not ended.
    private var transferring = 0
    /// Started items whose first request is not yet posted.
    private var unposted = 0
    private var firstPlacesTaken = false

    init(concurrency: Int, waitingAtGate: Int, extraCommits: Int) {
        self.concurrency = concurrency
        self.waitingAtGate = waitingAtGate
        self.extraCommits = extraCommits
    }

    /// A batch's places for `settings`: `-j` within the limit on open files. Each item of a
    /// one-connection batch has its request waiting at the gate before a place frees up, so the
    /// next transfer starts at once (docs/performance.md). Not with --fail-fast, which starts
    /// nothing after a failure, nor with -s, whose items use several connections each. Refuses
    /// (exit 3) when the limit leaves no room for a transfer.
    init(for settings: DownloadSettings) throws(TransferFailure) {
        let gated = settings.split == 1 && !settings.failsFast
        let budget = try DescriptorBudget(asked: settings.concurrency, connectionsEach: settings.split, gated: gated)
        self.init(
            concurrency: budget.transfers, waitingAtGate: gated ? budget.transfers : 0, extraCommits: budget.extraCommits)
        gate = gated ? TransferGate(limit: budget.transfers) : nil
        narrowedByOpenFileLimit = budget.transfers < settings.concurrency ? budget.limit : nil
    }

    /// Items under way at most, transferring or waiting at the gate: how far a list is read ahead.
    var itemsAhead: Int { concurrency + waitingAtGate }

    var isIdle: Bool { running == 0 }

    /// Whether the next item may start. Mutating: the first time every started item has posted
    /// its request, the first places count as taken from then on.
    mutating func mayStartAnother() -> Bool {
        if unposted == 0 && running > 0 { firstPlacesTaken = true }
        let transfersAllowed = firstPlacesTaken ? concurrency + waitingAtGate : concurrency
        return transferring < transfersAllowed && running < concurrency + waitingAtGate + extraCommits
    }

    /// Whether an item started now must say when its request is posted: only until the first
    /// places are taken, after which the count of unposted requests decides nothing (and each
    /// milestone is a wake-up of the runner).
    var needsPostReports: Bool { !firstPlacesTaken }

    mutating func started(reportingPost: Bool) {
        running += 1
        transferring += 1
        if reportingPost { unposted += 1 }
    }

    mutating func requestPosted() { unposted -= 1 }

    mutating func transferEnded() { transferring -= 1 }

    /// An item turned away by its server waits, without a request, for a place at its host
    /// (`HostSchedule.turnedAway`). Meanwhile its `-j` place goes to the next item: another
    /// host's, as the host's own items wait behind it. It takes the place back when it tries
    /// again; the curl thread's gate still bounds the transfers at once.
    mutating func transferPaused() { transferring -= 1 }
    mutating func transferResumed() { transferring += 1 }

    /// The item ended; it may not have said before that its request was posted or its transfer
    /// ended (a skip, a failure before any request). `requestWasUnposted` is false for an item
    /// started with `reportingPost` false.
    mutating func finished(requestWasUnposted: Bool, transferWasOpen: Bool) {
        if requestWasUnposted { unposted -= 1 }
        if transferWasOpen { transferring -= 1 }
        running -= 1
    }
}
