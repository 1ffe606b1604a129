/// Where an item's body should end up, as the user asked.
public enum OutputTarget: Sendable, Equatable {
    /// A file named after the URL, in this directory.
    case directory(String)
    /// Exactly this path (`-o PATH`).
    case path(String)
    /// Standard output (`-o -`): no part file, no resume.
    case standardOutput
}
