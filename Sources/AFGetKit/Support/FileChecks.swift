import Glibc

/// Files named on the command line that afget reads or writes only later (a report written at
/// the end, a cookie jar saved after the transfers, a netrc file libcurl reads), checked before
/// any transfer: a typo in a path should not cost a whole batch, or pass silently.
public enum FileChecks {
    /// `path` can be created or replaced: it is not a directory and its directory is writable.
    public static func writable(_ path: String, toDo action: String) throws(TransferFailure) {
        if fileKind(at: path, followingSymlinks: true) == S_IFDIR {
            throw fileFailure(action, path, errno: EISDIR)
        }
        guard access(splitPath(path).directory, W_OK) == 0 else { throw fileFailure(action, path, errno: errno) }
    }

    /// `path` exists and can be read.
    public static func readable(_ path: String, toDo action: String) throws(TransferFailure) {
        guard access(path, R_OK) == 0 else { throw fileFailure(action, path, errno: errno) }
    }
}
