import AFGetSupport

/// How a link was found, which decides the rules it is judged by.
public enum LinkKind: Sendable, Equatable {
    /// A link to follow (`a`, `area`, `link rel=alternate`, a meta refresh): it counts one
    /// level, and `--no-parent` applies.
    case page
    /// What a page needs to be shown (`img`, `script`, a stylesheet, a frame, a CSS `url()`):
    /// one level more with `-p`, and not bound by `--no-parent`.
    case requisite
}

/// Why a link is not fetched: what the summary and the report count as skipped by a rule.
public enum CrawlSkip: String, Sendable, CaseIterable {
    case otherHost = "other-host"
    case aboveStart = "no-parent"
    case tooDeep = "level"
    case name = "accept-reject"
    case pattern = "accept-reject-regex"
    case robots
    case nofollow
    /// An autoindex listing's sort link (`?C=M;O=D`) or its link to the directory above.
    case listingNavigation = "listing-navigation"
}

/// The page a link was found in, as far as the rules need it.
struct LinkSource {
    let url: CrawlURL
    /// An autoindex listing (Apache, nginx, lighttpd, python's http.server).
    let isListing: Bool
}

/// What becomes of a link.
enum ScopeVerdict: Equatable {
    /// Fetched; `keep` false for a page `-A`/`-R` refuse, fetched for its links and then removed.
    case fetch(keep: Bool)
    case skip(CrawlSkip)
}

/// The scope rules as a value (issue 54, point 3): a link, how it was found and how deep it is
/// are judged against the start URLs and the settings, touching nothing. robots.txt is the
/// frontier's, which knows each host's answer.
struct CrawlScope {
    private let settings: CrawlSettings
    private let accept: NamePatterns
    private let reject: NamePatterns
    private let acceptRegex: URLPattern?
    private let rejectRegex: URLPattern?
    /// The start URLs' hosts (with their ports) and, for `--no-parent`, their directories.
    private let startDirectories: [String: [Substring]]
    private let domains: [String]

    init(settings: CrawlSettings, starts: [CrawlURL]) throws(TransferFailure) {
        self.settings = settings
        accept = NamePatterns(settings.accept)
        reject = NamePatterns(settings.reject)
        acceptRegex = try settings.acceptRegex.map { pattern throws(TransferFailure) in
            try URLPattern(pattern, option: "--accept-regex")
        }
        rejectRegex = try settings.rejectRegex.map { pattern throws(TransferFailure) in
            try URLPattern(pattern, option: "--reject-regex")
        }
        startDirectories = Dictionary(grouping: starts, by: \.hostAndPort).mapValues { $0.map(\.directory) }
        domains = settings.domains.flatMap { $0.split(separator: ",") }.map { $0.lowercased() }
            .map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }.filter { !$0.isEmpty }
    }

    /// Whether `url`, found as `kind` in `source` and `depth` links from a start page, is fetched.
    func verdict(for url: CrawlURL, kind: LinkKind, depth: Int, from source: LinkSource) -> ScopeVerdict {
        if Self.isSortLink(url, on: source.url) || source.isListing && Self.isAbove(url, listing: source.url) {
            return .skip(.listingNavigation)
        }
        guard admitsHost(of: url) else { return .skip(.otherHost) }
        if let level = settings.pageLevel {
            let deepest = kind == .requisite && settings.pageRequisites ? level + 1 : level
            guard depth <= deepest else { return .skip(.tooDeep) }
        }
        if kind == .page && settings.noParent, let directories = startDirectories[url.hostAndPort],
            !directories.contains(where: { url.path.hasPrefix($0) })
        {
            return .skip(.aboveStart)
        }
        if let acceptRegex, !acceptRegex.matches(url.text) { return .skip(.pattern) }
        if let rejectRegex, rejectRegex.matches(url.text) { return .skip(.pattern) }
        guard keepsName(of: url) else {
            return kind == .page && Self.mayBePage(url) ? .fetch(keep: false) : .skip(.name)
        }
        return .fetch(keep: true)
    }

    /// Whether the redirect of an item (`kind`, `depth`, fetched from `source`) to `target` is
    /// followed: judged as if the item had linked to it, one to another host by `-H` and `-D`.
    func admitsRedirect(to target: CrawlURL, kind: LinkKind, depth: Int, from source: CrawlURL) -> Bool {
        if case .skip = verdict(for: target, kind: kind, depth: depth, from: LinkSource(url: source, isListing: false)) {
            return false
        }
        return true
    }

    /// The hosts of the start URLs; with `-H` any other, or with `-D` those of its domains.
    func admitsHost(of url: CrawlURL) -> Bool {
        if startDirectories[url.hostAndPort] != nil { return true }
        guard settings.spanHosts else { return false }
        return domains.isEmpty || domains.contains { url.host == $0 || url.host.hasSuffix("." + $0) }
    }

    /// `-A` and `-R` on the name the file is saved as (`index.html` for a directory, with its
    /// query), as wget matches them: `-R "index.html*"` refuses the listings themselves.
    func keepsName(of url: CrawlURL) -> Bool {
        let name = CrawlLayout.fileName(of: url)
        if !accept.isEmpty && !accept.matchesAny(name) { return false }
        return !reject.matchesAny(name)
    }

    /// A link that may well be a page whose links lead on: a directory, a name without an
    /// extension, or one that servers use for pages.
    static func mayBePage(_ url: CrawlURL) -> Bool {
        if url.path.hasSuffix("/") { return true }
        let name = url.path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return true }
        return pageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    private static let pageExtensions: Set<String> = [
        "html", "htm", "xhtml", "shtml", "php", "asp", "aspx", "jsp", "cgi", "pl",
    ]

    /// An autoindex's column sort (Apache's `?C=N;O=D`, also with `&`; Caddy's
    /// `?sort=name&order=asc`): the same listing again.
    static func isSortLink(_ url: CrawlURL, on page: CrawlURL) -> Bool {
        guard let query = url.query, url.path == page.path, url.hostAndPort == page.hostAndPort else { return false }
        let fields = query.split(whereSeparator: { $0 == ";" || $0 == "&" })
        let keys = fields.map { field in
            let pair = field.split(separator: "=", maxSplits: 1)
            return pair.count == 2 ? pair[0] : ""
        }
        return !keys.isEmpty && keys.allSatisfy { ["C", "O", "F", "V", "P"].contains($0) }
            || Set(keys) == ["sort", "order"]
    }

    /// A directory above a listing's own (its "Parent Directory" link), on its host.
    static func isAbove(_ url: CrawlURL, listing: CrawlURL) -> Bool {
        url.hostAndPort == listing.hostAndPort && url.query == nil && url.path.hasSuffix("/")
            && listing.directory.hasPrefix(url.path) && listing.directory.count > url.path.count
    }
}
