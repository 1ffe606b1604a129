import AFGetSupport
import FoundationEssentials
import Glibc

/// Where a multipart upload's record lives: `$XDG_STATE_HOME/afget/uploads/` (else
/// `~/.local/state/afget/uploads/`), named by a hash of the store, the object and the file's
/// absolute path, so the same command finds it again from any directory, and a source
/// directory (perhaps read-only, perhaps uploaded with `-r`) gets no files of afget's. Named
/// `.afupload`, not `.afresume`, so `afget resume` never takes one for a download's. Written
/// as a download's resume data is: a temporary name, fsynced, renamed over; mode 0600.
public struct S3UploadRecordStore: Sendable {
    public let path: String
    private let temporaryPath: String

    public init(directory: String, endpoint: String, url: String, source: String) {
        let digest = RunningDigest(.sha256)
        for part in [endpoint, url, source] {
            let bytes = Array(part.utf8) + [0]
            bytes.withUnsafeBytes { digest.update($0.baseAddress!, $0.count) }
        }
        let name = String(digest.hex().prefix(32))
        path = joinPath(directory, name + ".afupload")
        temporaryPath = joinPath(directory, name + ".aftmp")
    }

    /// The directory records go in, from the environment; nil when there is no home to put
    /// it in (then a multipart upload cannot be continued, and says so).
    public static func directory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return joinPath(state, "afget/uploads") }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return joinPath(home, ".local/state/afget/uploads")
    }

    /// The record, nil when there is none; one that cannot be used is a resume conflict
    /// naming the file (`--restart` discards it).
    public func load() throws(TransferFailure) -> S3UploadRecord? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw fileFailure(.read, path, errno: code)
        }
        defer { close(descriptor) }
        let bytes: [UInt8]
        switch readAll(descriptor, limit: 4 << 20) {
        case .success(let read): bytes = read
        case .failure(.system(let code)): throw TransferFailure(.resume(.unreadableResumeData(path: path, errno: code)))
        case .failure(.tooLarge): throw TransferFailure(.resume(.resumeDataTooLarge(path: path)))
        }
        do {
            return try S3UploadRecord(propertyList: Data(bytes))
        } catch {
            throw TransferFailure(.resume(.unusableResumeData(path: path, why: error.reason)))
        }
    }

    /// Replaces the record, durably: a part it counts is one the store acknowledged.
    public func save(_ record: S3UploadRecord) throws(TransferFailure) {
        try makeDirectories(splitPath(path).directory)
        try ResumeStore.replace(path, through: temporaryPath, with: record.propertyList(), durable: true)
    }

    public func remove() {
        unlink(path)
        unlink(temporaryPath)
    }

    /// `directory` and its missing parents, mode 0700 (records name the files a user uploads).
    private func makeDirectories(_ directory: String) throws(TransferFailure) {
        var made = ""
        for component in directory.split(separator: "/") {
            made += "/" + component
            if mkdir(made, 0o700) != 0 && errno != EEXIST { throw fileFailure(.createDirectory, made, errno: errno) }
        }
    }
}
