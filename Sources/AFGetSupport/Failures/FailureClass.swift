/// The classes of failure afget distinguishes, and the exit status each maps to.
/// This is the one place the exit-status table of the manual lives in code.
public enum FailureClass: String, Sendable, CaseIterable {
    case internalError = "internal"
    case usage
    case localFile = "file"
    case network
    case tls
    case authentication = "auth"
    case protocolViolation = "protocol"
    case httpStatus = "http"
    case resumeConflict = "resume"
    case checksumMismatch = "checksum"
    case destinationExists = "exists"
    case destinationBusy = "busy"

    public var exitCode: Int32 {
        switch self {
        case .internalError: 1
        case .usage: 2
        case .localFile: 3
        case .network: 4
        case .tls: 5
        case .authentication: 6
        case .protocolViolation: 7
        case .httpStatus: 8
        case .resumeConflict: 9
        case .checksumMismatch: 10
        case .destinationExists: 11
        case .destinationBusy: 12
        }
    }
}

/// Exit statuses that are not failures of an item.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let interruptedBySIGHUP: Int32 = 129
    public static let interruptedBySIGINT: Int32 = 130
    public static let interruptedBySIGTERM: Int32 = 143
    /// Standard output was a pipe whose reader closed it: 128 + SIGPIPE, the status `cat` or
    /// `wget -O -` end with there, which `set -o pipefail` sees.
    public static let outputClosed: Int32 = 141

    /// In a batch the lowest non-zero code among failed items wins, as in wget.
    public static func combined(_ codes: [Int32]) -> Int32 {
        codes.filter { $0 != 0 }.min() ?? success
    }
}
