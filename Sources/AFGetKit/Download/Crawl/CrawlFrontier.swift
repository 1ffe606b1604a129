import AFGetSupport
import Glibc

/// What the frontier hands out next.
enum CrawlStep: Equatable {
    case item(DownloadItem)
    /// Nothing to fetch now; items in flight may bring more.
    case waiting
    /// Nothing queued, nothing in flight: the crawl is over.
    case finished
}

/// The crawl's own work, on one thread (the crawl thread, `Crawl`), touching the network
/// never: seeded with start URLs, it hands out the URLs to fetch as download items (robots.txt
/// first for each host), and is told of each item's end, reading a page's links from the file
/// now in place and queuing those in scope. URLs seen are kept as 64-bit keys and the queue
/// spills to a file (`SpillQueue`), so memory stays bounded for a million pages.
final class CrawlFrontier {
    private let settings: CrawlSettings
    private let scope: CrawlScope
    private let queue: SpillQueue
    private var seen = Set<UInt64>()
    /// Each URL skipped by a rule, so each is counted once.
    private var skippedKeys = Set<UInt64>()
    /// Destinations claimed, by their path's hash: two URLs for one file (`-nd`, `-nH` across
    /// hosts) get `name.1.ext` for the later.
    private var claimedPaths = Set<UInt64>()
    /// Items handed out and not yet ended, by item index.
    private var inFlight: [Int: CrawlFlight] = [:]
    /// Start pages and robots.txt files, handed out before the queue.
    private var first: [(url: CrawlURL, flight: CrawlFlight)] = []
    /// Each origin's robots.txt: links of a host wait here while its robots.txt is fetched.
    private var robots: [String: HostRobots] = [:]
    private var nextIndex: Int
    private(set) var tally = CrawlTally()
    /// With `-k`: the pages read and kept, to be rewritten once the crawl is over.
    private let savedPages: SavedPages?
    /// An item ended stopped (Ctrl-C): the crawl is not over, and its pages are not rewritten.
    private var sawStop = false
    /// With `-k`: the files of the URLs queued, by their path's hash. A page an earlier run
    /// converted links `dir/` as `dir/index.html` and `p?q` as `p%3Fq`, other URLs for the same
    /// files; read from disk, such a link to a file already queued is that file, not another.
    private var linkedPaths = Set<UInt64>()

    private enum HostRobots {
        case pending([QueuedLink])
        case known(RobotsRules)
    }

    /// `starts` are URLs as the user gave them; items are numbered from `firstIndex`. A start
    /// URL is fetched whatever the rules say (robots.txt included): it was asked for by name.
    init(settings: CrawlSettings, starts: [String], firstIndex: Int, queue: SpillQueue = SpillQueue())
        throws(TransferFailure)
    {
        var startURLs: [CrawlURL] = []
        for start in starts {
            guard let url = CrawlURL.normalized(start) else {
                throw TransferFailure(.input(.malformedURL(start))).noting(.at(start))
            }
            startURLs.append(url)
        }
        self.settings = settings
        scope = try CrawlScope(settings: settings, starts: startURLs)
        self.queue = queue
        savedPages = settings.convertsLinks ? SavedPages(directory: queue.directory) : nil
        nextIndex = firstIndex
        for url in startURLs where seen.insert(url.key).inserted {
            if settings.convertsLinks { linkedPaths.insert(StableHash.of(settings.layout.path(for: url))) }
            if settings.obeysRobots { askRobots(for: url) }
            first.append((url, CrawlFlight(url: url, depth: 0, kind: .page, keep: scope.keepsName(of: url), isRobots: false)))
        }
    }

    var isFinished: Bool { first.isEmpty && queue.isEmpty && inFlight.isEmpty }

    /// The next URL to fetch, as a download item.
    func next() throws(TransferFailure) -> CrawlStep {
        if !first.isEmpty {
            let (url, flight) = first.removeFirst()
            return .item(handOut(url, flight))
        }
        while let link = try queue.popFirst() {
            guard let url = CrawlURL.normalized(link.url) else { continue }
            if settings.obeysRobots {
                switch robots[origin(of: url)] {
                case nil:
                    robots[origin(of: url)] = .pending([link])
                    if let robotsItem = robotsItem(for: url) { return .item(robotsItem) }
                    continue
                case .pending(var waiting):
                    waiting.append(link)
                    robots[origin(of: url)] = .pending(waiting)
                    continue
                case .known(let rules):
                    guard rules.allows(url) else {
                        count(.robots, url)
                        continue
                    }
                }
            }
            let flight = CrawlFlight(url: url, depth: link.depth, kind: link.kind, keep: link.keep, isRobots: false)
            return .item(handOut(url, flight))
        }
        return inFlight.isEmpty ? .finished : .waiting
    }

    /// Takes in an ended item: a page now in place is read for links; robots.txt gives its
    /// host's rules. Returns what the item was; nil for an item that is not the crawl's.
    @discardableResult
    func ended(_ ending: CrawlEnding) throws(TransferFailure) -> CrawlRole? {
        guard let flight = inFlight.removeValue(forKey: ending.record.info.id) else { return nil }
        if flight.isRobots {
            try learnRobots(flight.url, from: ending)
            return .robots
        }
        if let finalURL = ending.finalURL.flatMap({ CrawlURL.normalized($0) }) { seen.insert(finalURL.key) }
        switch ending.record.outcome {
        case .done, .skipped:
            try read(ending, flight)
        case .failed:
            break
        case .stopped:
            sawStop = true
        }
        return flight.kind == .page ? .page : .requisite
    }

    /// The item `index`, handed out and not yet ended: what the crawl tells the curl thread of
    /// it, to judge its redirects there.
    func flight(ofItem index: Int) -> CrawlFlight? {
        inFlight[index]
    }

    /// The pace robots.txt asks of the host of `url` (`Crawl-delay`), once it is known.
    func crawlDelay(forHostOf url: CrawlURL) -> Double? {
        guard case .known(let rules) = robots[origin(of: url)] else { return nil }
        return rules.crawlDelay
    }

    private func read(_ ending: CrawlEnding, _ flight: CrawlFlight) throws(TransferFailure) {
        let path = ending.record.info.path
        defer {
            if !flight.keep && unlink(path) == 0 { tally.removedAfterReading += 1 }
        }
        guard let kind = CrawlDocument.kind(contentType: ending.contentType, path: path),
            let found = CrawlDocument.links(
                inFileAt: path, kind: kind, charset: CrawlDocument.charset(of: ending.contentType))
        else { return }
        tally.pagesRead += 1
        let fetchedFrom = ending.finalURL.flatMap { CrawlURL.normalized($0) } ?? flight.url
        if flight.keep, let savedPages {
            try savedPages.append(
                SavedPage(path: path, url: fetchedFrom.text, kind: kind, charset: CrawlDocument.charset(of: ending.contentType)))
        }
        let base = found.base.flatMap { CrawlURL.normalized($0, base: fetchedFrom) } ?? fetchedFrom
        let source = LinkSource(url: fetchedFrom, isListing: found.isListing)
        // A style sheet's images belong to the page that uses it: no level further.
        let depth = flight.depth + (kind == .css ? 0 : 1)
        let noFollow = found.noFollow && settings.obeysRobots
        // Left by an earlier run, which may have converted its links.
        let fromDisk = ending.contentType == nil
        for link in found.links {
            guard let url = CrawlURL.normalized(link.reference, base: base), !seen.contains(url.key) else { continue }
            let pathKey = settings.convertsLinks ? StableHash.of(settings.layout.path(for: url)) : nil
            if fromDisk, let pathKey, linkedPaths.contains(pathKey) { continue }
            if noFollow && link.kind == .page {
                count(.nofollow, url)
                continue
            }
            switch scope.verdict(for: url, kind: link.kind, depth: depth, from: source) {
            case .skip(let reason):
                count(reason, url)
            case .fetch(let keep):
                seen.insert(url.key)
                if let pathKey { linkedPaths.insert(pathKey) }
                try queue.append(QueuedLink(url: url.text, depth: depth, kind: link.kind, keep: keep))
            }
        }
    }

    /// `-k`, once the crawl is over (and not stopped): each page read and kept rewritten, one
    /// at a time from disk, until `isStopped` says the run is. Returns the pages that could not
    /// be, as failures of the run.
    func convertLinks(isStopped: () -> Bool) -> [ItemFailure] {
        guard let savedPages, isFinished, !sawStop else { return [] }
        var failures: [ItemFailure] = []
        var converted = 0
        do throws(TransferFailure) {
            try savedPages.forEach { page in
                do throws(TransferFailure) {
                    if try PageConversion.convert(page, layout: settings.layout) { converted += 1 }
                } catch {
                    failures.append(ItemFailure(item: page.path, error))
                }
                return !isStopped()
            }
        } catch {
            failures.append(ItemFailure(item: "crawl", error))
        }
        tally.pagesConverted = converted
        return failures
    }

    private func learnRobots(_ url: CrawlURL, from ending: CrawlEnding) throws(TransferFailure) {
        let rules: RobotsRules
        switch ending.record.outcome {
        case .done, .skipped:
            let file = open(ending.record.info.path, O_RDONLY | O_CLOEXEC)
            let bytes: [UInt8]? = file < 0 ? nil : try? readAll(file, limit: RobotsRules.largest).get()
            if file >= 0 { close(file) }
            rules = bytes.map { RobotsRules(parsing: String(decoding: $0, as: UTF8.self)) } ?? .allowAll
        case .failed, .stopped:
            rules = RobotsRules.forFailedFetch(status: ending.record.httpStatus)
        }
        let waiting: [QueuedLink]
        if case .pending(let links) = robots[origin(of: url)] { waiting = links } else { waiting = [] }
        robots[origin(of: url)] = .known(rules)
        for link in waiting { try queue.append(link) }
    }

    /// robots.txt of `url`'s origin, to be handed out before anything else of it.
    private func askRobots(for url: CrawlURL) {
        guard robots[origin(of: url)] == nil else { return }
        robots[origin(of: url)] = .pending([])
        if let item = robotsCrawlFlight(for: url) { first.append(item) }
    }

    private func robotsItem(for url: CrawlURL) -> DownloadItem? {
        robotsCrawlFlight(for: url).map { handOut($0.url, $0.flight) }
    }

    private func robotsCrawlFlight(for url: CrawlURL) -> (url: CrawlURL, flight: CrawlFlight)? {
        guard let robotsURL = CrawlURL.normalized("/robots.txt", base: url) else { return nil }
        seen.insert(robotsURL.key)
        return (robotsURL, CrawlFlight(url: robotsURL, depth: 0, kind: .requisite, keep: true, isRobots: true))
    }

    private func handOut(_ url: CrawlURL, _ flight: CrawlFlight) -> DownloadItem {
        let index = nextIndex
        nextIndex += 1
        inFlight[index] = flight
        return DownloadItem(
            index: index, url: url.text, output: .path(claimedPath(for: url)), absentIsNoFailure: flight.isRobots,
            hostPace: crawlDelay(forHostOf: url))
    }

    /// The layout's path for `url`, numbered when another URL of this crawl took it.
    private func claimedPath(for url: CrawlURL) -> String {
        let path = settings.layout.path(for: url)
        if claimedPaths.insert(StableHash.of(path)).inserted { return path }
        let (directory, name) = splitPath(path)
        for number in 1... {
            let numbered = joinPath(directory, FileNaming.numbered(name, number))
            if claimedPaths.insert(StableHash.of(numbered)).inserted { return numbered }
        }
        return path
    }

    private func count(_ reason: CrawlSkip, _ url: CrawlURL) {
        if skippedKeys.insert(url.key).inserted { tally.skipped[reason, default: 0] += 1 }
    }

    /// robots.txt is per scheme, host and port (RFC 9309 §2.3).
    private func origin(of url: CrawlURL) -> String {
        "\(url.scheme)://\(url.hostAndPort)"
    }
}
