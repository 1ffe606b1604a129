/// An item of the crawl between its handing out and its end: the URL fetched and how it was
/// found, which its links and its redirects are judged by.
struct CrawlFlight: Sendable {
    let url: CrawlURL
    let depth: Int
    let kind: LinkKind
    /// False for a page `-A`/`-R` refuse: read for its links, then removed.
    let keep: Bool
    let isRobots: Bool

    var role: CrawlRole { isRobots ? .robots : kind == .page ? .page : .requisite }
}

extension CrawlScope {
    /// Whether the redirect of `flight` to `target` is followed: judged as if the item had
    /// linked to it (issue 54, point 3); a robots.txt may move on its host only.
    func admitsRedirect(of flight: CrawlFlight, to target: String) -> Bool {
        guard let url = CrawlURL.normalized(target) else { return false }
        if flight.isRobots { return url.hostAndPort == flight.url.hostAndPort }
        return admitsRedirect(to: url, kind: flight.kind, depth: flight.depth, from: flight.url)
    }
}
