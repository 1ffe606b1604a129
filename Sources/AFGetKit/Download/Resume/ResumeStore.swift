import AFGetSupport
import FoundationEssentials
import Glibc

/// `DEST.afresume` on disk, written so that after any crash it is the old version or the new
/// one, never torn: a temporary file (`DEST.aftmp`, no longer than the plist's own name),
/// fsynced, then renamed over the plist. The directory is not fsynced: if the rename is lost,
/// the old version counts fewer bytes, which is safe. Mode 0600.
public struct ResumeStore: Sendable {
    public static let suffix = ".afresume"
    static let temporarySuffix = ".aftmp"

    public let path: String
    private let temporaryPath: String

    public init(destination: String) {
        let stem = FileNaming.workingFileStem(for: destination)
        path = stem + Self.suffix
        temporaryPath = stem + Self.temporarySuffix
    }

    /// The resume data, nil when there is none; unusable data is a resume conflict naming the file.
    public func load() throws(TransferFailure) -> ResumeData? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            // No permission or out of descriptors is no fault of the resume data (exit 3, not 9):
            // fixed where it happened, not by discarding the data with --restart.
            if [EACCES, EPERM, EMFILE, ENFILE, EIO].contains(code) { throw fileFailure(.read, path, errno: code) }
            throw TransferFailure(.resume(.unreadableResumeData(path: path, errno: code)))
        }
        defer { close(descriptor) }
        let bytes: [UInt8]
        switch readAll(descriptor, limit: 1 << 20) {
        case .success(let read):
            bytes = read
        case .failure(.system(let code)):
            throw TransferFailure(.resume(.unreadableResumeData(path: path, errno: code)))
        case .failure(.tooLarge):
            throw TransferFailure(.resume(.resumeDataTooLarge(path: path)))
        }
        do {
            return try ResumeData(propertyList: Data(bytes))
        } catch {
            throw TransferFailure(.resume(.unusableResumeData(path: path, why: error.reason)))
        }
    }

    /// `durable: false` skips the fsync, for resume data that counts no bytes: losing it
    /// loses nothing, and it saves a disk flush per file in a batch of small files.
    public func save(_ data: ResumeData, durable: Bool = true) throws(TransferFailure) {
        try Self.replace(path, through: temporaryPath, with: data.propertyList(), durable: durable)
    }

    /// Writes `bytes` to `temporaryPath` (mode 0600, never through a symlink), then renames it
    /// over `path`: a reader finds the old file or the new one whole, never part of one.
    /// `durable`: synced before the rename.
    static func replace(_ path: String, through temporaryPath: String, with bytes: Data, durable: Bool) throws(TransferFailure) {
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fileFailure(.write, temporaryPath, errno: errno) }
        if let code = OutputStream(descriptor: descriptor).write(bytes: [UInt8](bytes)) {
            close(descriptor)
            unlink(temporaryPath)
            throw fileFailure(.write, temporaryPath, errno: code)
        }
        let synced = !durable || fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard synced else { throw fileFailure(.sync, temporaryPath, errno: code) }
        guard rename(temporaryPath, path) == 0 else { throw fileFailure(.replace, path, errno: errno) }
    }

    public func remove() {
        unlink(path)
        unlink(temporaryPath)
    }
}
