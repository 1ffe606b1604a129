import CCurl

/// A URL held in libcurl's own parser (CURLU): a link found in a page resolved against the
/// page's URL as RFC 3986 §5 says (dot segments removed), read part by part. The crawl
/// normalizes every URL it finds through it, so that a link is judged as libcurl will fetch
/// it. Used by one thread at a time: the handle is libcurl's memory, freed with the reader.
public final class CurlURLParts {
    private let handle: OpaquePointer

    public enum Part {
        case scheme, user, password, host, port, path, query

        fileprivate var curlPart: CURLUPart {
            switch self {
            case .scheme: CURLUPART_SCHEME
            case .user: CURLUPART_USER
            case .password: CURLUPART_PASSWORD
            case .host: CURLUPART_HOST
            case .port: CURLUPART_PORT
            case .path: CURLUPART_PATH
            case .query: CURLUPART_QUERY
            }
        }
    }

    /// `reference` resolved against `base` (an absolute URL) when given; nil when libcurl
    /// refuses either, or the scheme is one libcurl does not speak (`mailto:`, `javascript:`).
    public init?(_ reference: String, relativeTo base: String? = nil) {
        guard !reference.utf8.contains(0), !(base?.utf8.contains(0) ?? false) else { return nil }
        CurlRuntime.initialize()
        guard let handle = curl_url() else { fatalError("curl_url failed: out of memory") }
        // Held before anything can fail: deinit frees it, also after a failed init.
        self.handle = handle
        if let base, curl_url_set(handle, CURLUPART_URL, base, 0) != CURLUE_OK { return nil }
        guard curl_url_set(handle, CURLUPART_URL, reference, 0) == CURLUE_OK else { return nil }
    }

    deinit {
        curl_url_cleanup(handle)
    }

    /// The part as libcurl holds it (still percent-encoded); nil when the URL has none.
    public func get(_ part: Part) -> String? {
        value(part.curlPart, flags: 0)
    }

    /// The whole URL, its scheme's default port left out.
    public var url: String? {
        value(CURLUPART_URL, flags: CURLU_NO_DEFAULT_PORT)
    }

    /// The port the URL names, or its scheme's default.
    public var effectivePort: Int? {
        value(CURLUPART_PORT, flags: CURLU_DEFAULT_PORT).flatMap { Int($0) }
    }

    private func value(_ part: CURLUPart, flags: Int32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &value, UInt32(flags)) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
