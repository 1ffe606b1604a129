/// A download's life, after AFURLConnectionOperation's state machine in the seeds:
///
///     preparing → transferring(1) ⇄ waitingToRetry → transferring(n) ⇄ verifying → moving → ended
///          ↘______________↘_______________↘____________________↘___________↘________↗
///
/// Every phase may end (done, skipped, failed or stopped); once the file is being verified, it
/// goes back to the network only to fetch a suspect source's bytes again (a failed checksum of a
/// file from several sources). The driver reads the phase after each step of a job: an item's first request
/// posted lets the next item queue behind it, and its move into place lets the next transfer start.
enum DownloadPhase: Equatable {
    case preparing
    /// Attempt `attempt` (counting from 1) is under way: requests are on the network.
    case transferring(attempt: Int)
    /// An attempt failed transiently; the next waits out its delay.
    case waitingToRetry
    /// Every byte is in: the part is checked (length, checksum).
    case verifying
    /// The file is made durable and moved into place; no more network for this item.
    case moving
    case ended

    func canTransition(to next: DownloadPhase) -> Bool {
        switch (self, next) {
        case (.ended, _): false
        case (_, .ended): true
        case (.preparing, .transferring(attempt: 1)): true
        case (.transferring(let now), .transferring(let later)): later == now + 1
        case (.transferring, .waitingToRetry), (.transferring, .verifying): true
        case (.waitingToRetry, .transferring): true
        case (.verifying, .moving): true
        // A file from several sources that failed its checksum: one source's bytes are fetched again.
        case (.verifying, .transferring): true
        default: false
        }
    }
}

/// The phase of one download, moved only along the transitions above.
struct DownloadPhaseMachine {
    private(set) var phase = DownloadPhase.preparing
    private(set) var attempts = 0

    /// Starts the next attempt, from whichever phase allows one.
    mutating func startAttempt() {
        attempts += 1
        move(to: .transferring(attempt: attempts))
    }

    mutating func move(to next: DownloadPhase) {
        guard next != phase else { return }
        // Only a bug in the job can get here; the checked transition makes it loud.
        precondition(phase.canTransition(to: next), "download phase \(phase) → \(next)")
        phase = next
    }
}
