import AFGetRequest
import CurlCore

/// What identifies one version of a remote file. Every validator the server gave is kept and
/// compared with every later answer — a continue's, a segment's, a mirror's — whether or not it
/// may be sent: servers that ignore `If-Range` exist, and only the comparison stops a splice.
/// `If-Range` (RFC 9110 §13.1.5) takes a strong ETag, else a Last-Modified at least one second
/// older than the response's Date (§8.8.2.2: only then is it strong enough); with neither, a
/// continue would be blind.
public struct EntityValidators: Sendable, Equatable {
    /// The ETag as the server wrote it: strong or weak (`W/"…"`), of any bytes.
    public var entityTag: String?
    /// The Last-Modified value as the server wrote it.
    public var lastModified: String?
    /// Whether `lastModified` is old enough, against the response's Date, to go in `If-Range`.
    public var lastModifiedIsStrong: Bool

    public init(entityTag: String? = nil, lastModified: String? = nil, lastModifiedIsStrong: Bool = true) {
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.lastModifiedIsStrong = lastModifiedIsStrong
    }

    /// The validators of a response.
    public init(of head: ResponseHead) {
        entityTag = head.value(of: "ETag")
        lastModifiedIsStrong = true
        if let modified = head.value(of: "Last-Modified"), let modifiedAt = HTTPDate.seconds(from: modified) {
            lastModified = modified
            let date = head.value(of: "Date").flatMap(HTTPDate.seconds(from:))
            lastModifiedIsStrong = date.map { $0 - modifiedAt >= 1 } ?? true
        }
    }

    /// `"` + visible ASCII but `"` + `"` (RFC 9110 §8.8.3, without obs-text): "W/..." is weak,
    /// and a tag with control or non-ASCII characters could not be sent back byte for byte, so
    /// it is compared but never sent.
    static func isStrongEntityTag(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) }
    }

    /// The ETag when it may go in `If-Range`.
    public var strongEntityTag: String? { entityTag.flatMap { Self.isStrongEntityTag($0) ? $0 : nil } }

    /// The `If-Range` value, or nil when there is nothing to continue safely against.
    public var ifRange: String? { strongEntityTag ?? (lastModifiedIsStrong ? lastModified : nil) }

    /// These validators, with what `earlier` knew and these leave out: a response that leaves
    /// a validator out proves nothing about it, so it is still compared.
    func keeping(_ earlier: EntityValidators) -> EntityValidators {
        var merged = self
        if merged.entityTag == nil { merged.entityTag = earlier.entityTag }
        if merged.lastModified == nil {
            merged.lastModified = earlier.lastModified
            merged.lastModifiedIsStrong = earlier.lastModifiedIsStrong
        }
        return merged
    }

    /// RFC 9110 §8.8.3.2's weak comparison: the opaque tags are the same bytes, whether either
    /// is weak or not. Bytes, not characters: Swift's `==` would take canonically equivalent
    /// spellings (a precomposed "é" and "e" + U+0301) as equal.
    static func sameEntityTag(_ one: String, _ other: String) -> Bool {
        func opaque(_ tag: String) -> Substring.UTF8View {
            tag.hasPrefix("W/") ? tag.dropFirst(2).utf8 : tag[...].utf8
        }
        return opaque(one).elementsEqual(opaque(other))
    }
}
