import AFGetRequest
import CurlCore

/// What identifies one version of a remote file, for `If-Range` (RFC 9110 §13.1.5):
/// a strong ETag, else a Last-Modified at least one second older than the response's Date
/// (§8.8.2.2: only then is it strong enough). With neither, a continue would be blind.
public struct EntityValidators: Sendable, Equatable {
    public var entityTag: String?
    public var lastModified: String?

    public init(entityTag: String? = nil, lastModified: String? = nil) {
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// The usable validators of a response.
    public init(of head: ResponseHead) {
        if let tag = head.value(of: "ETag"), Self.isStrongEntityTag(tag) {
            entityTag = tag
        }
        if let modified = head.value(of: "Last-Modified"), let modifiedAt = HTTPDate.seconds(from: modified) {
            let date = head.value(of: "Date").flatMap(HTTPDate.seconds(from:))
            if date.map({ $0 - modifiedAt >= 1 }) ?? true {
                lastModified = modified
            }
        }
    }

    /// `"` + visible ASCII but `"` + `"` (RFC 9110 §8.8.3, without obs-text): "W/..." is weak,
    /// and a tag with control or non-ASCII characters could not be written into the XML
    /// resume data, nor sent back byte for byte, so it is not relied on.
    static func isStrongEntityTag(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) }
    }

    /// The `If-Range` value, or nil when there is nothing to continue safely against.
    public var ifRange: String? { entityTag ?? lastModified }
}
