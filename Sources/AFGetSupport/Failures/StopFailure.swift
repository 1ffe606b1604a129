/// afget stopped the work itself: a signal, or a task ended without its outcome.
public enum StopFailure: Sendable, Equatable {
    /// The transfer was canceled before it ended.
    case canceled

    var words: String {
        switch self {
        case .canceled: "canceled"
        }
    }
}
