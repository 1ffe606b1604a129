/// What to do when items of different URLs in one run would write the same file
/// (`--on-conflict`), as `OnExistsPolicy` says what to do about a file already on disk.
public enum ConflictPolicy: String, Sendable, CaseIterable {
    /// The run does not start (exit 2), naming both items: two URLs for one name are most often
    /// a mistake in the list.
    case error
    /// wget's way: the later item is saved as the first free `name.N.ext` of the run, the same
    /// name on every run of the same command, so a re-run skips or continues it.
    case rename
}
