/// afget stopped the work itself, or a task ended without its outcome. Neither reaches a user
/// as an item's failure in a finished run: a stop is told as the interruption.
public enum StopFailure: Sendable, Equatable {
    /// The transfer was canceled before it ended.
    case canceled
    case bySignal
    case whileWaitingForInput
    case segmentsUnfinished
    case noResponse
    case taskManagerStoppedEarly
    /// libcurl would not take the transfer (`curl_multi_add_handle`), in its words.
    case cannotAddTransfer(said: String)

    var words: String {
        switch self {
        case .canceled: "canceled"
        case .bySignal: "stopped by a signal"
        case .whileWaitingForInput: "stopped while waiting for standard input"
        case .segmentsUnfinished: "segments ended unfinished"
        case .noResponse: "no response"
        case .taskManagerStoppedEarly: "the task manager stopped early"
        case .cannotAddTransfer(let said): "cannot add transfer: \(said)"
        }
    }
}
