import Glibc

/// What says a file is still the one an upload began with: its size, modification time (to the
/// nanosecond) and inode. Any of them changed, the parts already sent may be of other bytes,
/// so a continue is never trusted: the upload starts over.
public struct SourceFileIdentity: Sendable, Equatable {
    public let size: Int64
    /// Nanoseconds since the epoch.
    public let modified: Int64
    public let inode: UInt64

    public init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    /// `path`'s identity; errno when it cannot be read, nil when it is no regular file.
    static func of(_ path: String) -> Result<SourceFileIdentity?, SystemErrorCode> {
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(SystemErrorCode(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .success(nil) }
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        return .success(SourceFileIdentity(size: Int64(status.st_size), modified: modified, inode: UInt64(status.st_ino)))
    }
}

/// An errno as an error value.
struct SystemErrorCode: Error {
    let code: Int32

    init(_ code: Int32) {
        self.code = code
    }
}
