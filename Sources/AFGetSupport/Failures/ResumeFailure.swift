/// A part file that cannot be continued.
public enum ResumeFailure: Sendable, Equatable {
    /// The server's file is not the one the part holds (another ETag, Last-Modified, length or
    /// coding): the part is of the old one.
    case entityChanged

    var code: String {
        switch self {
        case .entityChanged: "entity-changed"
        }
    }

    var words: String { "" }
}
