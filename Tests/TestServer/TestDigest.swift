import COpenSSL

/// A running digest for the tests, straight over libcrypto's EVP interface and independent of
/// afget's own hashing, so a report's `sha256` is checked against a second computation.
public final class TestDigest {
    private let context: OpaquePointer

    public static func sha256() -> TestDigest { TestDigest(EVP_sha256()) }
    public static func md5() -> TestDigest { TestDigest(EVP_md5()) }

    private init(_ method: OpaquePointer?) {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        EVP_DigestInit_ex(context, method, nil)
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        let done = bytes.withContiguousStorageIfAvailable { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        if done == nil { Array(bytes).withUnsafeBufferPointer { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) } }
    }

    /// The digest in lowercase hex; the digest cannot be updated after this.
    public func hex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
