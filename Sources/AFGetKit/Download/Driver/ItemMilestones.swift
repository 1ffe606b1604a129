/// The milestones of an item the runner admits others by: its first request posted (the next
/// item may queue behind it at the gate) and its transfer ended (the next may start) while its
/// file is moved into place. Read off the job's phases after each of its steps.
struct ItemMilestones: Sendable {
    /// The runner was told of the first request (or does not need to be).
    private(set) var requestPosted: Bool
    private(set) var transferEnded = false

    /// `reportingPost`: the runner counts this item's unposted request (`ItemAdmission`).
    init(reportingPost: Bool) {
        requestPosted = !reportingPost
    }

    enum Milestone: Sendable {
        case requestPosted
        case transferEnded
    }

    /// The milestones `phases` shows passed that were not told yet, in order.
    mutating func passed(_ phases: DownloadPhaseMachine) -> [Milestone] {
        var passed: [Milestone] = []
        if !requestPosted && phases.attempts > 0 {
            requestPosted = true
            passed.append(.requestPosted)
        }
        if !transferEnded && phases.phase == .moving {
            transferEnded = true
            passed.append(.transferEnded)
        }
        return passed
    }
}
