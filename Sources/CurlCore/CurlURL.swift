import CCurl
import Glibc

/// A URL parsed by libcurl's own parser (CURLU), so afget judges URLs exactly as libcurl
/// will fetch them.
public struct CurlURL: Sendable, Equatable {
    public let absoluteString: String
    public let scheme: String
    public let host: String
    public let port: Int
    /// The path as given, still percent-encoded.
    public let path: String
    /// The URL names a user (`sftp://alice@host/`): libcurl logs in as that user.
    public let hasUser: Bool
    /// Scheme, host and port: what must match for credentials to travel along. Made once: the
    /// curl thread asks for it four times per transfer, and building it at each asking was
    /// 0.8 % of a list's CPU.
    public let origin: String

    public enum ParseError: Error, Equatable {
        case malformed(String)
    }

    /// What is read of a parsed URL.
    public enum Reading: Sendable {
        /// Every part, and the URL whole as libcurl will send it.
        case all
        /// Only what names its file (scheme, host and path), for a list's first pass, which
        /// keeps nothing of an item but its destination: asking libcurl for the URL whole
        /// (which it rebuilds with its own `printf`) and for the other parts was two thirds of
        /// that pass (docs/performance.md). `absoluteString` is then the URL as given, and
        /// `port`, `hasUser` and `origin` are not read.
        case destination
    }

    /// A space, never valid in a URL, is taken as `%20`, as browsers and wget do: URLs are
    /// copied from pages with their spaces.
    public init(_ string: String, reading: Reading = .all) throws(ParseError) {
        // libcurl reads a C string, which a NUL ends: "http://h/a\0.x" would be taken for
        // http://h/a. Refused in libcurl's words for input it refuses, as every other control
        // byte is refused by its parser.
        let (hasNUL, hasSpace) = Self.findNULAndSpace(in: string)
        guard !hasNUL else {
            throw .malformed(String(cString: curl_url_strerror(CURLUE_MALFORMED_INPUT)))
        }
        CurlRuntime.initialize()
        guard let handle = curl_url() else { fatalError("curl_url failed: out of memory") }
        defer { curl_url_cleanup(handle) }
        let escaped = hasSpace ? string.replacing(" ", with: "%20") : string
        let status = curl_url_set(handle, CURLUPART_URL, escaped, UInt32(CURLU_NON_SUPPORT_SCHEME))
        guard status == CURLUE_OK else {
            throw .malformed(String(cString: curl_url_strerror(status)))
        }
        func part(_ what: CURLUPart, _ flags: Int32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, what, &value, UInt32(flags)) == CURLUE_OK, let value else {
                return nil
            }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST),
            let url = reading == .all ? part(CURLUPART_URL) : escaped
        else {
            throw .malformed("no host")
        }
        absoluteString = url
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        path = part(CURLUPART_PATH) ?? "/"
        guard reading == .all else {
            (port, hasUser, origin) = (0, false, "")
            return
        }
        port = part(CURLUPART_PORT, CURLU_DEFAULT_PORT).flatMap { Int($0) } ?? 0
        hasUser = part(CURLUPART_USER).map { !$0.isEmpty } ?? false
        // A scheme libcurl knows no port for (s3://, a bucket) is named without one.
        origin = port == 0 ? "\(self.scheme)://\(self.host)" : "\(self.scheme)://\(self.host):\(port)"
    }

    /// Whether `string` holds a NUL and a space, in one look at its bytes: each URL of a
    /// list is asked, and two searches through `String.UTF8View` cost 10 % of a parse.
    private static func findNULAndSpace(in string: String) -> (nul: Bool, space: Bool) {
        var copy = string
        return copy.withUTF8 { bytes in
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return (false, false) }
            return (memchr(start, 0, bytes.count) != nil, memchr(start, 0x20, bytes.count) != nil)
        }
    }

    public var isHTTP: Bool { scheme == "http" || scheme == "https" }

    /// A file on an FTP or SSH server: no HTTP exchange, libcurl's own protocol.
    public var isRemoteFile: Bool { Self.remoteFileSchemes.contains(scheme) }

    /// Over SSH (SFTP, SCP): host keys and SSH keys apply.
    public var isSSH: Bool { scheme == "sftp" || scheme == "scp" }

    /// The schemes of files afget fetches and sends besides HTTP's.
    public static let remoteFileSchemes: Set<String> = ["ftp", "ftps", "sftp", "scp"]
}
