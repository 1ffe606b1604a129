/// A checksum that did not match, or could not be checked.
public enum ChecksumFailure: Sendable, Equatable {
    /// The finished file's digest is not the expected one.
    case mismatch

    var failureClass: FailureClass { .checksumMismatch }

    var code: String {
        switch self {
        case .mismatch: "checksum-mismatch"
        }
    }

    var words: String { "" }
}
