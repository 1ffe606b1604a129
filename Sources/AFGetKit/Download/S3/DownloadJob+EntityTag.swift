import AFGetProgress
import AFGetSupport

/// An S3 object's ETag as its checksum. A single-part upload's ETag is the MD5 of the object
/// (32 hex digits); a multipart upload's is the MD5 of its parts' MD5s with `-N` after it, and
/// a server-side encrypted (SSE-KMS) object's is neither: those are not checked, as `-v` says.
extension DownloadJob {
    /// The MD5 `entityTag` (quotes and `W/` aside) stands for, nil when it is none.
    static func objectMD5(inEntityTag entityTag: String) -> String? {
        var tag = Substring(entityTag)
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        if tag.hasPrefix("\""), tag.hasSuffix("\""), tag.count >= 2 { tag = tag.dropFirst().dropLast() }
        let isHex = tag.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }
        return tag.utf8.count == 32 && isHex ? tag.lowercased() : nil
    }

    /// How the part's MD5 differs from the object's ETag, when that is an MD5 and it does;
    /// with `-v`, says when the ETag is no MD5 to check.
    func entityTagMismatch() -> DigestMismatch? {
        guard let digest = objectDigest else { return nil }
        guard let tag = validators.entityTag, let expected = Self.objectMD5(inEntityTag: tag) else {
            if settings.transfer.verbose {
                renderer.handle(.notice(DownloadNotices.entityTagNotMD5(info.path, entityTag: validators.entityTag)))
            }
            return nil
        }
        let actual = digest.hex()
        return actual == expected ? nil : .file(algorithm: "md5", expected: expected, origin: "the object's ETag", actual: actual)
    }
}
