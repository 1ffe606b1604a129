import Glibc

/// Files named on the command line that afget reads or writes only later (a report written at
/// the end, a cookie jar saved after the transfers, a netrc file libcurl reads), checked before
/// any transfer: a typo in a path should not cost a whole batch, or pass silently.
public enum FileChecks {
    /// `path` can be written: an existing device or FIFO (`/dev/null`, a named pipe) that
    /// allows writing, which is written in place; or else a file that can be created or
    /// replaced: not a directory, in a writable directory.
    public static func writable(_ path: String, toDo action: FileAction) throws(TransferFailure) {
        switch fileKind(at: path, followingSymlinks: true) {
        case S_IFDIR:
            throw fileFailure(action, path, errno: EISDIR)
        case let kind? where kind != S_IFREG:
            guard access(path, W_OK) == 0 else { throw fileFailure(action, path, errno: errno) }
        default:
            guard access(splitPath(path).directory, W_OK) == 0 else { throw fileFailure(action, path, errno: errno) }
        }
    }

    /// `path` exists and can be read.
    public static func readable(_ path: String, toDo action: FileAction) throws(TransferFailure) {
        guard access(path, R_OK) == 0 else { throw fileFailure(action, path, errno: errno) }
    }
}
