import AFGetSupport
import CCurl
import CurlCore
import Glibc

/// Which proxy transfers go through: `-x`/`--proxy` and `--noproxy`, or else what libcurl reads
/// itself from http_proxy, https_proxy, all_proxy and no_proxy (afget sets nothing that would
/// stop it). Not recorded in resume data: like every connection setting, it comes from each
/// run's command line and environment.
public struct ProxySettings: Sendable, Equatable {
    /// `-x`: the proxy URL as given, credentials included (libcurl takes them from it); "" for
    /// none, not even one from the environment; nil to let the environment decide.
    public var url: String?
    /// `--noproxy`: hosts reached directly, in no_proxy's syntax; nil to let no_proxy decide.
    public var bypass: String?
    /// The proxy variables as afget started with them, to name the proxy a failure came from.
    var environment: [String: String]

    public init(url: String? = nil, bypass: String? = nil, environment: [String: String] = ProxySettings.environment()) {
        self.url = url
        self.bypass = bypass
        self.environment = environment
    }

    /// Schemes of the proxies libcurl speaks to.
    static let schemes = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// Whether `-x` can be used: "" (no proxy), or a URL of a proxy scheme with a host, http://
    /// when it names no scheme. The problem never quotes the URL, which may hold a password.
    public static func check(_ proxy: String) throws(UnusableProxy) {
        guard !proxy.isEmpty else { return }
        let parsed: CurlURL
        do {
            parsed = try CurlURL(proxy.contains("://") ? proxy : "http://" + proxy)
        } catch {
            switch error {
            case .malformed(let reason): throw UnusableProxy(reason: "not a proxy URL (\(reason.lowercased()))")
            }
        }
        guard schemes.contains(parsed.scheme) else {
            throw UnusableProxy(
                reason: "afget cannot use a \(parsed.scheme):// proxy (" + schemes.map { $0 + "://" }.joined(separator: ", ")
                    + ")")
        }
    }

    /// A `-x` URL afget cannot use, and why.
    public struct UnusableProxy: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The variables libcurl consults, from this process's environment.
    public static func environment() -> [String: String] {
        var found: [String: String] = [:]
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }

    /// Sets the handle's proxy options. Left unset, libcurl reads the environment.
    func apply(to easy: EasyHandle) {
        if let url { easy.set(CURLOPT_PROXY, url) }
        if let bypass { easy.set(CURLOPT_NOPROXY, bypass) }
        // A tunnel's CONNECT response is the proxy's, not the origin's: kept from the header
        // callback, which would take it for the response.
        easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, true)
    }

    /// The proxy a request to `target` goes through, or nil when it goes directly: libcurl's own
    /// choice, made as its documentation describes it, to name the proxy in a failure. `-x`,
    /// else `scheme_proxy` (http_proxy in lowercase only), else all_proxy; none for a host that
    /// `--noproxy` or else no_proxy lists.
    public func proxy(forRequestTo target: CurlURL) -> ChosenProxy? {
        let lowercase = "\(target.scheme)_proxy"
        let chosen =
            url ?? environment[lowercase] ?? (target.scheme == "http" ? nil : environment[lowercase.uppercased()])
            ?? environment["all_proxy"] ?? environment["ALL_PROXY"]
        guard let chosen, !chosen.isEmpty else { return nil }
        guard !Self.bypasses(bypass ?? environment["no_proxy"] ?? environment["NO_PROXY"] ?? "", host: target.host) else {
            return nil
        }
        let scheme = chosen.firstRange(of: "://").map { chosen[..<$0.lowerBound].lowercased() } ?? "http"
        return ChosenProxy(
            name: Self.shownName(chosen), sendsCredentials: Self.credentials(in: chosen) != nil,
            speaksHTTP: scheme == "http" || scheme == "https")
    }

    /// The user and password of a proxy URL: everything before its last `@`. A password from
    /// the environment may hold any character (`/`, `#`, `@`, a space), unescaped, so the
    /// authority is not cut at the first of them.
    private static func credentials(in proxy: String) -> Substring? {
        let afterScheme = proxy.firstRange(of: "://").map { proxy[$0.upperBound...] } ?? proxy[...]
        return afterScheme.lastIndex(of: "@").map { afterScheme[..<$0] }
    }

    /// Host and port of a proxy URL, never its credentials; without a port, the one libcurl uses
    /// (443 for an https:// proxy, 1080 for any other).
    static func shownName(_ proxy: String) -> String {
        let afterScheme = proxy.firstRange(of: "://").map { proxy[$0.upperBound...] } ?? proxy[...]
        let afterCredentials = credentials(in: proxy).map { afterScheme[afterScheme.index(after: $0.endIndex)...] } ?? afterScheme
        let hostAndPort = afterCredentials.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hasPort = hostAndPort.lastIndex(of: ":").map { !hostAndPort[$0...].contains("]") } ?? false
        if hasPort { return String(hostAndPort) }
        return "\(hostAndPort):\(proxy.lowercased().hasPrefix("https://") ? 443 : 1080)"
    }

    /// Text from libcurl (an error, a `-v` note) with every proxy URL afget or the environment
    /// gave it shown without its credentials: libcurl quotes them as given ("Unsupported proxy
    /// syntax in 'http://u:pa/ss@host'"), so each is replaced whole, before the general rule for
    /// URLs with passwords catches the rest.
    public func withoutCredentials(_ text: String) -> String {
        var text = text
        let given = [url] + ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].map { environment[$0] }
        for case let proxy? in given {
            guard let credentials = Self.credentials(in: proxy), let colon = credentials.firstIndex(of: ":") else { continue }
            if text.contains(proxy) { text = text.replacing(proxy, with: Self.shownName(proxy)) }
            // libcurl's error text ends at 255 bytes, maybe inside the password, before any "@":
            // from "user:" on, up to a quote or the end, nothing of it is shown.
            let start = String(proxy[..<colon]) + ":"
            var shown = ""
            var rest = text[...]
            while let found = rest.firstRange(of: start) {
                let end = rest[found.upperBound...].firstIndex { $0 == "'" || $0 == "\"" } ?? rest.endIndex
                shown += rest[..<found.lowerBound] + Self.shownName(proxy)
                rest = rest[end...]
            }
            text = shown + rest
        }
        return removingPasswords(inText: text)
    }

    /// Whether a no_proxy list names `host`: "*" names every host; otherwise a name covers
    /// itself and its subdomains (a leading dot is the same), and an address only itself.
    static func bypasses(_ list: String, host: String) -> Bool {
        let separators: Set<Character> = [",", " ", "\t"]
        if list.strippingEnds(separators) == "*" { return true }
        let name = host.lowercased().strippingEnds(["[", "]"]).withoutTrailingDot
        for entry in list.split(whereSeparator: { separators.contains($0) }) {
            var pattern = entry.lowercased().strippingEnds(["[", "]"]).withoutTrailingDot
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            if pattern.isEmpty { continue }
            // A name covers its subdomains; an address (digits and dots, or IPv6) only itself.
            let isAddress = pattern.contains(":") || pattern.allSatisfy { $0.isNumber || $0 == "." }
            if name == pattern || (!isAddress && name.hasSuffix("." + pattern)) { return true }
        }
        return false
    }
}

/// A proxy a transfer goes through, as failures name it.
public struct ChosenProxy: Sendable, Equatable {
    /// Host and port, never credentials: "proxy.example:3128".
    public let name: String
    /// Its URL holds credentials, which libcurl sends (Basic) in Proxy-Authorization.
    public let sendsCredentials: Bool
    /// An http:// or https:// proxy, which answers a plain-HTTP request itself (a 407 is its
    /// own); a SOCKS proxy only carries bytes.
    public let speaksHTTP: Bool

    /// The failure a proxy's refusal to carry a request stands for: a 407 is its credentials
    /// refused (exit 6), or missing (an HTTP error, exit 8, as a 401 without credentials is);
    /// anything else from a proxy is a network failure, as an unreachable proxy is.
    public func refusal(status: Int) -> TransferFailure {
        if status == 407 {
            return TransferFailure(
                .connection(sendsCredentials ? .proxyCredentialsRefused(proxy: name) : .proxyCredentialsMissing(proxy: name)))
        }
        return TransferFailure(.connection(.proxyRefused(proxy: name, status: status)))
    }
}

extension String {
    fileprivate func strippingEnds(_ characters: Set<Character>) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }

    fileprivate var withoutTrailingDot: String { hasSuffix(".") ? String(dropLast()) : self }
}
