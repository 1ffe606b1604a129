import AFGetSupport

/// One page of a ListObjectsV2 answer (`<ListBucketResult>`): at most a thousand objects, and
/// the token of the next page when the listing is truncated. A page is read whole and dropped
/// before the next is asked for, so a listing of any length costs one page's memory.
struct ListObjectsPage: Equatable {
    struct Object: Equatable {
        let key: String
        let size: Int64?
        /// As the store wrote it, quotes included (`"9b2c…"`): an ETag header's form.
        let entityTag: String?
        /// ISO 8601 (`2024-05-01T12:00:00.000Z`), as the listing gives it.
        let lastModified: String?
    }

    let objects: [Object]
    /// `NextContinuationToken` when `IsTruncated` is true; nil on the last page.
    let nextToken: String?

    /// Nil for a body that is no ListBucketResult, or a truncated page without a token
    /// (asking again from the start would never end).
    init?(_ body: [UInt8]) {
        guard let xml = S3XML(body), let root = xml.root(named: "ListBucketResult") else { return nil }
        objects = root.children(named: "Contents").compactMap { contents in
            guard let key = contents.text(of: "Key") else { return nil }
            return Object(
                key: key, size: contents.text(of: "Size").flatMap { Int64($0.trimmingWhitespace()) },
                entityTag: contents.text(of: "ETag"), lastModified: contents.text(of: "LastModified"))
        }
        if root.text(of: "IsTruncated")?.trimmingWhitespace() == "true" {
            guard let token = root.text(of: "NextContinuationToken"), !token.isEmpty else { return nil }
            nextToken = token
        } else {
            nextToken = nil
        }
    }
}
