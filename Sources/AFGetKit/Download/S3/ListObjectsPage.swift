import AFGetRequest

/// One page of a ListObjectsV2 answer (`<ListBucketResult>`): the keys of at most a thousand
/// objects, and the token of the next page when the listing is truncated. A page is read whole
/// and dropped before the next is asked for, so a listing of any length costs one page's
/// memory. Only the keys are kept: an object's ETag, size and date are what its own GET answers
/// (the validators of its download), not what the listing said a moment before.
struct ListObjectsPage: Equatable {
    let keys: [String]
    /// `NextContinuationToken` when `IsTruncated` is true; nil on the last page.
    let nextToken: String?

    /// Nil for a body that is no ListBucketResult, or a truncated page without a token
    /// (asking again from the start would never end).
    init?(_ body: [UInt8]) {
        guard let xml = S3XML(body), let root = xml.root(named: "ListBucketResult") else { return nil }
        keys = root.children(named: "Contents").compactMap { $0.text(of: "Key") }
        if root.text(of: "IsTruncated")?.trimmingWhitespace() == "true" {
            guard let token = root.text(of: "NextContinuationToken"), !token.isEmpty else { return nil }
            nextToken = token
        } else {
            nextToken = nil
        }
    }
}
