/// Something the user gave afget that it cannot use: an option's value, a line of a list, a
/// Metalink document, a checksum file. Each is a usage failure (exit 2).
public enum InputFailure: Sendable, Equatable {
    /// A list's line that is not valid UTF-8.
    case notUTF8

    var words: String {
        switch self {
        case .notUTF8: "the line is not valid UTF-8"
        }
    }
}
