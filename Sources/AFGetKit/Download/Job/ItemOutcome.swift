import AFGetProgress
import AFGetSupport

/// How one item of a run ended: the runner counts it, the report records it.
public enum ItemOutcome: Sendable, Equatable {
    /// Downloaded and moved into place (or uploaded); `transferred` bytes went over the
    /// network in this run.
    case done(transferred: Int64)
    /// Left as it was (`--on-exists`, not modified, `-J` onto a kept file).
    case skipped
    case failed(ItemFailure)
    /// The run stopped (a signal, `--fail-fast`) before the item ended, leaving `kept` for the
    /// next run.
    case stopped(KeptForNextRun)

    public var failure: ItemFailure? {
        if case .failed(let failure) = self { failure } else { nil }
    }
}
