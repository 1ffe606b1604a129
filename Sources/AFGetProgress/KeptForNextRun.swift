/// What an interrupted item left for the next run, and so what the run's last line may promise:
/// a line that says "continue" where nothing can be continued sends people back for nothing.
/// Ordered from least to most, so that a batch says what its most useful item left
/// (`max` of its stopped items).
public enum KeptForNextRun: Sendable, Comparable {
    /// Not a byte arrived, or none was kept: there is nothing to continue.
    case nothing
    /// Bytes arrived but nothing ties a continue to them (no validator, a small file kept
    /// without resume data, a coded body, standard output): the next run starts over.
    case startsOver
    /// A part file with resume data: the next run continues it.
    case continues
}
