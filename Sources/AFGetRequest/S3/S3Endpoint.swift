import AFGetSupport
import CurlCore

/// Where a store's objects are asked for over HTTP: an endpoint URL and its addressing style.
/// Virtual-hosted style puts the bucket in the host name (`https://BUCKET.s3.REGION.amazonaws.com/KEY`);
/// path style puts it in the path (`http://127.0.0.1:9000/BUCKET/KEY`), as MinIO and moto on a
/// loopback address need, since no name resolves to them with a bucket in front.
public struct S3Endpoint: Sendable, Equatable {
    /// Scheme, host and port, without a trailing `/`.
    public let base: CurlURL
    public let pathStyle: Bool

    /// `url` (`--s3-endpoint`, `AWS_ENDPOINT_URL`), else AWS's for `region`. `pathStyle` nil:
    /// path style for an IP address or `localhost`, virtual-hosted otherwise.
    public init(url: String?, region: String, pathStyle: Bool?) throws(TransferFailure) {
        let given = url ?? "https://s3.\(region).amazonaws.com"
        let parsed: CurlURL
        do {
            parsed = try CurlURL(given)
        } catch {
            throw TransferFailure(.input(.s3EndpointMalformed(given)))
        }
        guard parsed.isHTTP, parsed.path == "/" || parsed.path.isEmpty, !parsed.absoluteString.contains("?") else {
            throw TransferFailure(.input(.s3EndpointMalformed(given)))
        }
        base = parsed
        self.pathStyle = pathStyle ?? Self.isAddressOrLocal(parsed.host)
    }

    /// An IP address (v4, or v6 in brackets) or localhost: no bucket can be a name below it.
    static func isAddressOrLocal(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The HTTP URL of `location`'s object.
    public func objectURL(_ location: S3Location) -> String {
        bucketRoot(location.bucket) + S3Location.escaped(location.key)
    }

    /// ListObjectsV2's URL for a page of the keys under `prefix`, after `token` (the last
    /// page's `NextContinuationToken`). Parameters in name order and escaped as SigV4's
    /// canonical query is, since libcurl 7.88 signs the query as it is sent.
    public func listURL(bucket: String, prefix: String, continuationToken token: String?) -> String {
        var query: [String] = []
        if let token { query.append("continuation-token=" + S3Location.escaped(token, keepingSlash: false)) }
        query.append("list-type=2")
        query.append("prefix=" + S3Location.escaped(prefix, keepingSlash: false))
        return bucketRoot(bucket) + "?" + query.joined(separator: "&")
    }

    /// `scheme://host[:port]/` with the bucket where the style puts it, ending in `/`.
    private func bucketRoot(_ bucket: String) -> String {
        let defaultPort = base.scheme == "https" ? 443 : 80
        let port = base.port == defaultPort || base.port == 0 ? "" : ":\(base.port)"
        let host = base.host.contains(":") && !base.host.hasPrefix("[") ? "[\(base.host)]" : base.host
        return pathStyle
            ? "\(base.scheme)://\(host)\(port)/\(bucket)/"
            : "\(base.scheme)://\(bucket).\(host)\(port)/"
    }
}
