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
        if let tag = head.value(of: "ETag"), tag.hasPrefix("\"") {  // "W/..." is weak
            entityTag = tag
        }
        if let modified = head.value(of: "Last-Modified"), let modifiedAt = HTTPDate.seconds(from: modified) {
            let date = head.value(of: "Date").flatMap(HTTPDate.seconds(from:))
            if date.map({ $0 - modifiedAt >= 1 }) ?? true {
                lastModified = modified
            }
        }
    }

    /// The `If-Range` value, or nil when there is nothing to continue safely against.
    public var ifRange: String? { entityTag ?? lastModified }
}
