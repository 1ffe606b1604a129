/// What to do when the destination file already exists.
public enum OnExistsPolicy: String, Sendable, CaseIterable {
    /// Leave it and report the item as skipped (the default: re-running a command is safe).
    case skip
    /// Download again and replace it atomically once complete.
    case overwrite
    /// Download to the first free `name.N.ext`.
    case rename
    /// Fail the item (exit 11).
    case error
    /// Download again only when the server's copy is newer than the file (If-Modified-Since
    /// from its modification time); a 304 leaves the file and counts as skipped.
    case update
}
