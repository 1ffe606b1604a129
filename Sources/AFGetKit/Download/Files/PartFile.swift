import AFGetProgress
import AFGetSupport
import CPlatform
import FoundationEssentials
import Glibc

/// The file a download is written to until it is complete: `DEST.afpart` beside the
/// destination, so the final rename is atomic. Created exclusively without following
/// symlinks, mode 0600 while incomplete, and locked for the whole transfer.
///
/// A new download starts in a file with no name (O_TMPFILE) in the destination's directory
/// instead (DESIGN.md §4, small bodies): a small body is linked into place only when complete
/// and durable, and leaves nothing on disk if it is stopped; a body that needs resume data
/// gets its `DEST.afpart` name (`giveName`) at its first checkpoint.
public final class PartFile {
    public static let suffix = ".afpart"

    public let destination: String
    public let path: String
    public let descriptor: Int32
    /// Whether a file may be at `destination` already (it is then replaced keeping its mode).
    private let mayReplace: Bool
    private var isOpen = true
    /// The file has no name yet: nothing of it is on disk to be found or continued.
    public private(set) var isAnonymous = false
    /// Created with the mode a new file gets, so a new destination needs no fchmod: a file with
    /// no name is readable by no one else until it has one.
    private var hasNewFileMode = false
    /// Resume data was found kept on this file (`keptResumeData`): removed before the move.
    var holdsKeptResumeData = false
    /// An earlier run left data in this file.
    private(set) var heldDataWhenOpened = false

    private init(destination: String, path: String, descriptor: Int32, mayReplace: Bool) {
        self.destination = destination
        self.path = path
        self.descriptor = descriptor
        self.mayReplace = mayReplace
    }

    deinit {
        if isOpen { close(descriptor) }
    }

    /// Opens (or creates) `destination.afpart` (its name shortened when too long) and locks it, creating missing parent directories.
    /// The content is left as it is: the caller decides where writing continues. `replacing`
    /// says whether a file may be at `destination` now; when not, the final mode is a new file's
    /// without looking there again.
    public static func open(for destination: String, replacing: Bool) throws(TransferFailure) -> PartFile {
        let path = FileNaming.workingFileStem(for: destination) + suffix
        var descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0 && errno == ENOENT {
            try createDirectories(splitPath(destination).directory)
            descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        if descriptor < 0 && errno == EEXIST {
            // Left by an earlier run: continued from its resume data, or started over.
            descriptor = Glibc.open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor < 0 && errno == ELOOP {
                throw TransferFailure(.file(.symbolicLink(path: path)))
            }
        }
        guard descriptor >= 0 else { throw fileFailure(.create, path, errno: errno) }
        let part = PartFile(destination: destination, path: path, descriptor: descriptor, mayReplace: replacing)

        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw TransferFailure(.file(.notRegular(path: path)))
        }
        part.heldDataWhenOpened = status.st_size > 0
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            if errno == EWOULDBLOCK {
                throw TransferFailure(.file(.lockedByAnother(path: path)))
            }
            throw fileFailure(.lock, path, errno: errno)
        }
        return part
    }

    /// A new download's file with no name, in the destination's directory, when nothing of an
    /// earlier run is there (no `DEST.afpart`, no `DEST.afresume`) and the file system makes
    /// such files; nil otherwise, and the caller opens the named part file.
    static func openAnonymous(
        for destination: String, replacing: Bool, resumeData: String, spares: SpareFiles, listings: DirectoryListings
    ) -> PartFile? {
        let path = FileNaming.workingFileStem(for: destination) + suffix
        func isAbsent(_ path: String) -> Bool {
            var status = stat()
            return listings.isAbsent(path) || (lstat(path, &status) != 0 && errno == ENOENT)
        }
        guard isAbsent(path), isAbsent(resumeData) else { return nil }
        let directory = splitPath(destination).directory
        guard !refusesAnonymousFiles, canLinkAnonymousFiles else { return nil }
        let spare = spares.take(in: directory)
        let descriptor = spare ?? afp_open_anonymous(directory, newFileMode)
        guard descriptor >= 0 else { return nil }  // no such directory yet, or a file system without O_TMPFILE
        let part = PartFile(destination: destination, path: path, descriptor: descriptor, mayReplace: replacing)
        part.isSpare = spare != nil
        part.isAnonymous = true
        part.hasNewFileMode = true
        part.spares = spares
        return part
    }

    /// Where this file, with no name and empty, goes when its download is given up.
    private var spares: SpareFiles?
    /// Taken from `spares`: its times are an earlier item's until written.
    private var isSpare = false

    /// `AFGET_NO_ANONYMOUS_FILES=1` makes every download take the named part file, as on a file
    /// system that refuses O_TMPFILE (some overlay and network file systems): how the tests
    /// reach that path.
    private static let refusesAnonymousFiles = getenv("AFGET_NO_ANONYMOUS_FILES").map { String(cString: $0) == "1" } ?? false

    /// A file with no name is given one through /proc/self/fd (linkat with AT_EMPTY_PATH needs a
    /// privilege): without /proc (a chroot, some sandboxes) it could never be placed.
    private static let canLinkAnonymousFiles = access("/proc/self/fd", X_OK) == 0

    /// Gives an anonymous part file its name, `DEST.afpart`, and locks it: its data is to be
    /// counted by resume data. Busy (exit 12) when another afget has that name now.
    func giveName() throws(TransferFailure) {
        guard isAnonymous else { return }
        // Locked before it has a name, so no other run can lock it in between (the lock is on
        // the open file, whatever its name).
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { throw fileFailure(.lock, path, errno: errno) }
        // Private while partial, like a part file created with its name.
        guard fchmod(descriptor, 0o600) == 0 else { throw fileFailure(.setModeOf, path, errno: errno) }
        hasNewFileMode = false
        guard afp_link_anonymous(descriptor, path) == 0 else {
            if errno == EEXIST {
                throw TransferFailure(.file(.appearedMeanwhile(path: path)))
            }
            throw fileFailure(.create, path, errno: errno)
        }
        isAnonymous = false
    }

    /// Bytes in the part file now.
    public func size() throws(TransferFailure) -> Int64 {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw fileFailure(.inspect, path, errno: errno) }
        return Int64(status.st_size)
    }

    /// Cuts the part file to `length`: a continue starts from bytes known good (after a power
    /// cut the tail past the last checkpoint may hold zeros). Where the descriptor points does
    /// not matter: every write to a part file says where it goes (`BufferedFileWriter`, pwrite).
    public func truncate(to length: Int64) throws(TransferFailure) {
        // Only when there is something to cut: ext4 writes back a file truncated to zero when
        // it is closed (auto_da_alloc), a synchronous cost per file in a batch of small files.
        if try size() != length {
            guard ftruncate(descriptor, off_t(length)) == 0 else { throw fileFailure(.truncate, path, errno: errno) }
        }
    }

    /// Claims room for the file to grow to `length` bytes without changing its size (fallocate
    /// with FALLOC_FL_KEEP_SIZE), so a disk too small is found out before the body arrives
    /// instead of after filling it. Throws only when there is no room, or the file would be larger
    /// than the file system allows one to be (EFBIG: over 4 GiB on FAT, 16 TiB on ext4); on a
    /// file system without fallocate the writes find out, as before. Nothing is cut here: body
    /// bytes may be arriving.
    public func reserveSpace(upTo length: Int64) throws(TransferFailure) {
        guard afp_reserve_space(descriptor, off_t(length)) != 0 else { return }
        let code = errno
        switch code {
        case ENOSPC, EDQUOT:
            throw TransferFailure(.file(.noRoom(path: path, length: length, errno: code)))
        case EFBIG:
            throw TransferFailure(.file(.tooLargeForFileSystem(path: path, length: length, errno: code)))
        default:
            return
        }
    }

    /// Hands the first `length` bytes to `body` a MiB at a time (to catch a digest up), until
    /// it returns false.
    public func read(upTo length: Int64, _ body: (UnsafeRawPointer, Int) -> Bool) throws(TransferFailure) {
        try read(0..<length, body)
    }

    /// Hands the bytes of `range` to `body` a MiB at a time (a piece to check), until it
    /// returns false.
    public func read(_ range: Range<Int64>, _ body: (UnsafeRawPointer, Int) -> Bool) throws(TransferFailure) {
        // A file with no name is open for reading too; a named one is opened again for it.
        let reader = isAnonymous ? descriptor : Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard reader >= 0 else { throw fileFailure(.read, path, errno: errno) }
        defer { if reader != descriptor { close(reader) } }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = pread(reader, buffer, Int(min(Int64(1 << 20), range.upperBound - offset)), off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw fileFailure(.read, path, errno: count < 0 ? errno : EIO) }
            guard body(buffer, count) else { return }
            offset += Int64(count)
        }
    }

    /// The digest of `range`'s bytes, as lowercase hex (a piece to check).
    func digest(of range: Range<Int64>, _ algorithm: DigestAlgorithm) throws(TransferFailure) -> String {
        let digest = RunningDigest(algorithm)
        try read(range) { bytes, count in
            digest.update(bytes, count)
            return true
        }
        return digest.hex()
    }

    /// Makes everything written so far durable before resume data may count it.
    public func syncData() throws(TransferFailure) {
        guard fdatasync(descriptor) == 0 else { throw fileFailure(.sync, path, errno: errno) }
    }

    /// Makes the data durable and moves it into place: final mode and modification time, then
    /// the data synced, renamed to the destination and the rename synced, together with other
    /// files finishing at the same time (`commits`). On failure the data stays in the part file
    /// and the message says so.
    public func commit(lastModified: Int64?, through commits: GroupCommit) async throws(TransferFailure) {
        let move = try prepareMove(lastModified: lastModified)
        try moved(failure: await commits.move(descriptor, from: move.source, to: move.destination))
    }

    /// What the group commit is handed to move this file into place.
    struct Move {
        let source: GroupCommit.Source
        let destination: String
    }

    /// Another name in the destination's directory (`-J`), and whether a file there is replaced.
    struct FinalName {
        let path: String
        let replacing: Bool
    }

    /// The first half of `commit`, on this thread: final mode and modification time set, and
    /// where the group commit moves the file from and to (`finalName` instead of the
    /// destination). `moved(failure:)` is the second half.
    func prepareMove(lastModified: Int64?, as finalName: FinalName? = nil) throws(TransferFailure) -> Move {
        let destination = finalName?.path ?? destination
        let replaces = finalName?.replacing ?? mayReplace
        let mode = replaces ? Self.finalMode(replacing: destination) : Self.newFileMode
        guard (hasNewFileMode && !replaces) || fchmod(descriptor, mode) == 0 else {
            throw fileFailure(.setModeOf, path, errno: errno).noting(.dataKeptThere)
        }
        if let lastModified {
            var times = [timespec(tv_sec: Int(lastModified), tv_nsec: 0), timespec(tv_sec: Int(lastModified), tv_nsec: 0)]
            _ = futimens(descriptor, &times)
        } else if isSpare {
            _ = futimens(descriptor, nil)  // an empty body wrote nothing to set them
        }
        if holdsKeptResumeData { forgetKeptResumeData() }
        let source: GroupCommit.Source =
            isAnonymous ? .anonymous(partPath: path, replacing: replaces) : .named(path, replacing: replaces)
        return Move(source: source, destination: destination)
    }

    /// The group commit's answer to `prepareMove`: the file is in place (and closed), or the
    /// failure is thrown.
    func moved(failure: TransferFailure?) throws(TransferFailure) {
        if let failure {
            // Left under its part file's name on its way over the destination: named now.
            if isAnonymous && isOwnFile(at: path) { isAnonymous = false }
            throw failure
        }
        closeDescriptor()
    }

    /// Whether the file at `path` is this one (and not another run's of the same name).
    private func isOwnFile(at path: String) -> Bool {
        var named = stat()
        var own = stat()
        guard lstat(path, &named) == 0, fstat(descriptor, &own) == 0 else { return false }
        return named.st_dev == own.st_dev && named.st_ino == own.st_ino
    }

    /// Gives up on the transfer: an empty part file is removed, data is kept for a later run.
    /// Returns how many bytes were kept.
    @discardableResult
    public func abandon() -> Int64 {
        if isAnonymous {  // gone with its descriptor, or kept empty for another download
            var status = stat()
            if isOpen, hasNewFileMode, let spares, fstat(descriptor, &status) == 0, status.st_size == 0, status.st_blocks == 0 {
                spares.keep(descriptor, in: splitPath(destination).directory)
                isOpen = false
            }
            closeDescriptor()
            return 0
        }
        defer { closeDescriptor() }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return 0 }
        if status.st_size == 0 { unlink(path) }
        return Int64(status.st_size)
    }

    private func closeDescriptor() {
        if isOpen {
            close(descriptor)
            isOpen = false
        }
    }

    /// The replaced file's mode when overwriting, else what a new file gets: 0666 & ~umask.
    private static func finalMode(replacing destination: String) -> mode_t {
        var existing = stat()
        if stat(destination, &existing) == 0 {
            return existing.st_mode & 0o777
        }
        return newFileMode
    }

    private static var newFileMode: mode_t { 0o666 & ~FileModes.umaskAtStart }

}

enum FileModes {
    /// Read once at start-up: umask can only be read by setting it.
    static let umaskAtStart: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()
}
