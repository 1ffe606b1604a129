import COpenSSL
import Glibc
import Synchronization

/// A digest computed as a download's bytes are written (by the curl thread) and read out by the
/// job when the file is complete, so a checksum costs no second read of the file.
public final class RunningDigest: Sendable {
    public let algorithm: DigestAlgorithm
    /// Bytes digested so far. Every use of `context` happens while holding this lock.
    private let count = PthreadMutex<Int64>(0)
    /// The EVP context. The pointer never changes; what it points to is only read or written
    /// under `count`'s lock, which is what makes sharing it between threads safe.
    nonisolated(unsafe) private let context: OpaquePointer

    public init(_ algorithm: DigestAlgorithm) {
        self.algorithm = algorithm
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        EVP_DigestInit_ex(context, Self.method(algorithm), nil)
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    private static func method(_ algorithm: DigestAlgorithm) -> OpaquePointer? {
        switch algorithm {
        case .sha256: EVP_sha256()
        case .sha1: EVP_sha1()
        case .md5: EVP_md5()
        case .sha512: EVP_sha512()
        }
    }

    public var bytesDigested: Int64 { count.withLock { $0 } }

    public func update(_ bytes: UnsafeRawPointer, _ length: Int) {
        count.withLock { count in
            EVP_DigestUpdate(context, bytes, length)
            count += Int64(length)
        }
    }

    /// Starts again from no bytes.
    public func reset() {
        count.withLock { count in
            EVP_DigestInit_ex(context, Self.method(algorithm), nil)
            count = 0
        }
    }

    /// The digest of the bytes so far, as lowercase hex; the running state is left as it is.
    public func hex() -> String {
        bytes().map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
    }

    /// The digest of the bytes so far; the running state is left as it is.
    public func bytes() -> [UInt8] {
        count.withLock { _ in
            guard let copy = EVP_MD_CTX_new() else { return [] }
            defer { EVP_MD_CTX_free(copy) }
            EVP_MD_CTX_copy_ex(copy, context)
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            EVP_DigestFinal_ex(copy, &digest, &length)
            return Array(digest.prefix(Int(length)))
        }
    }
}

extension RunningDigest {
    /// The digest of the regular file at `path` (symlinks followed), read a chunk at a time;
    /// nil when there is no such file or it cannot be read.
    package static func ofFile(at path: String, _ algorithm: DigestAlgorithm) -> RunningDigest? {
        guard fileKind(at: path, followingSymlinks: true) == S_IFREG else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let digest = RunningDigest(algorithm)
        guard
            readChunks(
                descriptor,
                {
                    digest.update($0, $1); return true
                }) == nil
        else { return nil }
        return digest
    }
}

/// The digests afget computes: for `--checksum` (aria2c's spelling), sums files
/// (`--checksums`, whose SHA512SUMS need SHA-512) and SHA-256 for reports.
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    case sha256 = "sha-256"
    case sha1 = "sha-1"
    case md5
    case sha512 = "sha-512"

    /// The length of the digest in hex digits.
    public var hexLength: Int {
        switch self {
        case .sha256: 64
        case .sha1: 40
        case .md5: 32
        case .sha512: 128
        }
    }
}
