import AFGetProgress
import AFGetSupport

/// Running totals of a run: counts only, so a run of any length costs the same memory. Each
/// record goes on to the report.
struct Tally {
    private(set) var summary = RunSummary()
    /// What the interrupted items left for the next run: the most any of them left, so that a
    /// batch says "continue" when one item continues, whatever the others left.
    private(set) var kept = KeptForNextRun.nothing
    let report: RunReport?
    let cancellation: Cancellation

    init(report: RunReport?, cancellation: Cancellation) {
        self.report = report
        self.cancellation = cancellation
    }

    /// `unusableAfter`: for an item found unusable (it has no id), the id of the item before it
    /// in list order, so that the summary lists failures in list order.
    mutating func add(_ record: ItemRecord, unusableAfter previousID: Int? = nil) {
        // What arrived counts, also for an item stopped by Ctrl-C (its bytes wait for the next
        // run) or one that failed after part of its body.
        summary.bytes += record.transferred
        switch record.outcome {
        case .done:
            summary.downloaded += 1
        case .skipped:
            summary.skipped += 1
        case .failed(let failure):
            if failure.failure.kind == .destinationBusy {
                summary.busy += 1
            } else {
                summary.failed += 1
                summary.noteFailure("\(failure)", order: previousID.map { 2 * $0 + 1 } ?? 2 * record.info.id)
            }
            summary.exitCode = ExitStatus.combined([summary.exitCode, failure.exitCode])
        case .stopped(let itemKept):
            kept = max(kept, itemKept)
            // One --fail-fast kept from starting is failed in the report, so here too.
            if record.wasInterrupted { summary.interrupted += 1 } else { summary.failed += 1 }
        }
        // An item the run stopped carries the run's exit: a signal's, known once it came; for
        // --fail-fast, the failures' so far (the one that stopped the run among them).
        report?.add(record, runExit: cancellation.exitStatus ?? summary.exitCode)
    }
}
