import AFGetSupport
import CurlCore

/// An object or a prefix in a bucket, as an `s3://BUCKET/KEY` URL names it. The key is the
/// URL's path read as a URL path: percent escapes are decoded (`%25` is a `%` in the key), a
/// space is taken as `%20`, and `?` or `#` would start a query or fragment, so they are written
/// `%3F` and `%23`. A key ending in `/` (or empty) is a prefix: a list of objects.
public struct S3Location: Sendable, Equatable {
    public let bucket: String
    public let key: String

    public init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }

    /// `url` (scheme s3, parsed by libcurl); nil when it has a query, a fragment, a user or a
    /// port, or a path that does not decode to UTF-8.
    public init?(_ url: CurlURL) {
        guard url.scheme == "s3", !url.hasUser, !url.absoluteString.contains("?"), !url.absoluteString.contains("#"),
            !url.host.isEmpty, let decoded = percentDecodedBytes(url.path.utf8.dropFirst()),
            let key = String(validating: decoded, as: UTF8.self)
        else { return nil }
        bucket = url.host
        self.key = key
    }

    /// A prefix: every object whose key starts with it.
    public var isPrefix: Bool { key.isEmpty || key.hasSuffix("/") }

    /// The `s3://` URL of this object, its key escaped so that it reads back the same.
    public var url: String { "s3://\(bucket)/\(S3Location.escaped(key))" }

    /// AWS's URI encoding (SigV4's canonical form): unreserved bytes kept, `/` kept in a key,
    /// every other byte as `%XX`, upper case. So the path sent is the path signed.
    public static func escaped(_ text: String, keepingSlash: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlash:
                out.append("/")
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
