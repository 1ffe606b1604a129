import CCurl

/// A URL held in libcurl's own parser (CURLU) while it is resolved and edited: a link found in
/// a page resolved against the page's URL as RFC 3986 §5 says (dot segments removed), then
/// changed part by part. The crawl normalizes every URL it finds through it, so that a link is
/// judged as libcurl will fetch it. Used by one thread at a time: the handle is libcurl's
/// memory, freed with the editor.
public final class CurlURLEditor {
    private let handle: OpaquePointer

    public enum Part {
        case scheme, user, password, host, port, path, query, fragment

        fileprivate var curlPart: CURLUPart {
            switch self {
            case .scheme: CURLUPART_SCHEME
            case .user: CURLUPART_USER
            case .password: CURLUPART_PASSWORD
            case .host: CURLUPART_HOST
            case .port: CURLUPART_PORT
            case .path: CURLUPART_PATH
            case .query: CURLUPART_QUERY
            case .fragment: CURLUPART_FRAGMENT
            }
        }
    }

    /// `reference` resolved against `base` (an absolute URL) when given; nil when libcurl
    /// refuses either, or the scheme is one libcurl does not speak (`mailto:`, `javascript:`).
    public init?(_ reference: String, relativeTo base: String? = nil) {
        guard !reference.utf8.contains(0), !(base?.utf8.contains(0) ?? false) else { return nil }
        CurlRuntime.initialize()
        guard let handle = curl_url() else { fatalError("curl_url failed: out of memory") }
        self.handle = handle
        if let base, curl_url_set(handle, CURLUPART_URL, base, 0) != CURLUE_OK {
            curl_url_cleanup(handle)
            return nil
        }
        guard curl_url_set(handle, CURLUPART_URL, reference, 0) == CURLUE_OK else {
            curl_url_cleanup(handle)
            return nil
        }
    }

    deinit {
        curl_url_cleanup(handle)
    }

    /// The part as libcurl holds it (still percent-encoded); nil when the URL has none.
    public func get(_ part: Part) -> String? {
        value(part.curlPart, flags: 0)
    }

    /// Sets a part as given, encoded already (nil removes it); false when libcurl refuses it.
    @discardableResult
    public func set(_ part: Part, _ value: String?) -> Bool {
        if let value, value.utf8.contains(0) { return false }
        return curl_url_set(handle, part.curlPart, value, 0) == CURLUE_OK
    }

    /// Replaces the whole URL by `url` read against the present one: libcurl removes the dot
    /// segments of a path as it reads a URL, not as a path is set.
    @discardableResult
    public func reread(_ url: String) -> Bool {
        guard !url.utf8.contains(0) else { return false }
        return curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK
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
