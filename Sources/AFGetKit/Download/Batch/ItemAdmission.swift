/// How many of a batch's items may be under way, and whether the next may start: up to
/// `concurrency` transferring, then (with a gate) as many more with their requests waiting at
/// the gate, and beyond the transfers some finished files being moved into place. The items that
/// wait at the gate start only once the first `concurrency` have posted their requests, so that
/// those take the gate's places and the gate starts the rest in list order.
struct ItemAdmission {
    let concurrency: Int
    let waitingAtGate: Int
    /// Finished items moving their files into place, beyond the transfers.
    let extraCommits: Int

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

    /// The item ended; it may not have said before that its request was posted or its transfer
    /// ended (a skip, a failure before any request). `requestWasUnposted` is false for an item
    /// started with `reportingPost` false.
    mutating func finished(requestWasUnposted: Bool, transferWasOpen: Bool) {
        if requestWasUnposted { unposted -= 1 }
        if transferWasOpen { transferring -= 1 }
        running -= 1
    }
}
