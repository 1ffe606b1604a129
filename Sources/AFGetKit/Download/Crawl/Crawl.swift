import AFGetProgress
import AFGetSupport
import Dispatch

/// A recursive download as the driver's source of items, in place of an `ItemFeed`: the driver
/// takes items in blocks with `nextBlock()` (being woken through `onMore` after `.notYet`) and
/// tells the crawl of each item's end with `itemEnded(_:)`.
///
/// The frontier works on a thread of its own, the crawl thread, as the list thread reads a
/// list: reading a page for links (a listing of thousands of files is milliseconds of libxml2)
/// and judging them would otherwise hold up the driver's thread, which answers every transfer's
/// events; on its own thread it overlaps the transfers. The driver's calls only take and put
/// under a lock: `ended` hands the ending over and returns at once.
public final class Crawl: Sendable {
    private let state = PthreadMutex(State())
    /// Signalled when there is work for the crawl thread: an ending, room for items, a stop.
    private let work = DispatchSemaphore(value: 0)
    /// The scope again, compiled apart from the frontier's: the curl thread judges redirects
    /// with it as they arrive, never waiting for the crawl thread.
    private let redirectScope: PthreadMutex<CrawlScope>

    private struct State {
        var ready: [NextItem] = []
        var endings: [CrawlEnding] = []
        var finished = false
        var closed = false
        /// The driver was told `.notYet`: wake it with the next item.
        var starving = false
        var wake: (@Sendable () -> Void)?
        var tally = CrawlTally()
        /// Each item, from its handing out until the driver has told its end.
        var flights: [Int: CrawlFlight] = [:]
    }

    /// Items handed to the driver ahead of its asking: they wait at the `-j` gate anyway.
    private static let readAhead = 64

    /// Checks the settings and start URLs (a regex regcomp refuses, a start URL that is no
    /// http(s) URL: exit 2 before any transfer), then starts the crawl thread. Items are
    /// numbered from `firstIndex`.
    public init(settings: CrawlSettings, starts: [String], firstIndex: Int = 0) throws(TransferFailure) {
        // Made here to refuse bad input at once; then moved onto the crawl thread, which alone uses it.
        let frontier = try CrawlFrontier(settings: settings, starts: starts, firstIndex: firstIndex)
        redirectScope = PthreadMutex(try CrawlScope(settings: settings, starts: starts.compactMap { CrawlURL.normalized($0) }))
        let handOver = FrontierHandOver(frontier)
        startThread(named: "afget-crawl") { [self] in
            run(handOver.take())
        }
    }

    /// Called from the driver: what to call when `next` said `.notYet` and there is more.
    func onMore(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Every item read ahead, from the driver, in one hand-over: as `ItemFeed.nextBlock`.
    func nextBlock() -> [NextItem] {
        let (block, wakesCrawl) = state.withLock { state -> ([NextItem], Bool) in
            if !state.ready.isEmpty {
                defer { state.ready.removeAll(keepingCapacity: true) }
                return (state.ready, true)
            }
            if state.finished { return ([.end], false) }
            state.starving = true
            return ([.notYet], false)
        }
        // The crawl thread reads ahead again: the driver has room for what it took.
        if wakesCrawl { work.signal() }
        return block
    }

    /// An item of the crawl ended (from the driver); returns what it was, for the counts: a
    /// robots.txt answered 4xx is no failure. nil for an item that is not the crawl's.
    @discardableResult
    public func ended(_ ending: CrawlEnding) -> CrawlRole? {
        let role = state.withLock { state -> CrawlRole? in
            let role = state.flights.removeValue(forKey: ending.record.info.id)?.role
            if role != nil { state.endings.append(ending) }
            return role
        }
        if role != nil { work.signal() }
        return role
    }

    /// Whether the redirect of item `index` to `target` is followed (on the curl thread, as it
    /// arrives): judged as if the item had linked to it. An item not the crawl's is followed.
    func admitsRedirect(ofItem index: Int, to target: String) -> Bool {
        guard let flight = state.withLock({ $0.flights[index] }) else { return true }
        return redirectScope.withLock { $0.admitsRedirect(of: flight, to: target) }
    }

    /// What the crawl counted so far (skips by rule, pages read, pages removed).
    public var tally: CrawlTally { state.withLock { $0.tally } }

    /// What the crawl counted so far, for the summary.
    func describe(in summary: inout RunSummary) {
        let tally = tally
        summary.crawl = CrawlCount(
            pagesRead: tally.pagesRead, pagesConverted: tally.pagesConverted,
            skippedByRule: Dictionary(uniqueKeysWithValues: tally.skipped.map { ($0.key.rawValue, $0.value) }))
    }

    /// Stops the crawl thread: the run is over.
    func close() {
        state.withLock { $0.closed = true }
        work.signal()
    }

    /// The crawl thread: takes endings in, hands items out, until the crawl is over or closed.
    private func run(_ frontier: CrawlFrontier) {
        var failure: TransferFailure?
        while true {
            let (endings, room, closed) = state.withLock { state in
                defer { state.endings.removeAll() }
                return (state.endings, Self.readAhead - state.ready.count, state.closed)
            }
            if closed { return }
            var items: [NextItem] = []
            var flights: [Int: CrawlFlight] = [:]
            var finished = false
            do throws(TransferFailure) {
                for ending in endings { try frontier.ended(ending) }
                fill: while items.count < room {
                    switch try frontier.next() {
                    case .item(let item):
                        flights[item.index] = frontier.flight(ofItem: item.index)
                        items.append(.item(item))
                    case .waiting: break fill
                    case .finished:
                        finished = true
                        break fill
                    }
                }
            } catch {
                // The queue's file failed (a full temporary directory): the crawl cannot go on.
                failure = error
                finished = true
            }
            if finished && failure == nil {
                // `-k` before the end is told: the summary then counts the pages converted, and
                // a page that could not be is a failure of the run.
                items += frontier.convertLinks { state.withLock { $0.closed } }.map { .unusable($0) }
            }
            let wake = state.withLock { state -> (@Sendable () -> Void)? in
                state.ready += items
                state.flights.merge(flights) { $1 }
                if let failure {
                    state.ready.append(.unusable(ItemFailure(item: "crawl", failure)))
                }
                state.tally = frontier.tally
                state.finished = finished
                guard state.starving, !state.ready.isEmpty || finished else { return nil }
                state.starving = false
                return state.wake
            }
            wake?()
            if finished { return }
            work.wait()
        }
    }
}

/// The frontier made on the caller's thread, taken once by the crawl thread: the one hand-over
/// of a value that is then used by that thread alone.
private final class FrontierHandOver: Sendable {
    private let frontier: PthreadMutex<CrawlFrontier?>

    init(_ frontier: sending CrawlFrontier) {
        self.frontier = PthreadMutex(frontier)
    }

    func take() -> CrawlFrontier {
        frontier.withLock { $0.take()! }
    }
}

extension Crawl: ItemSource {
    /// A crawl's size is known only once it is over.
    var knownCount: Int? { nil }

    var redirectJudge: RedirectJudge? {
        { [self] item, target in admitsRedirect(ofItem: item, to: target) }
    }

    func itemEnded(_ record: ItemRecord) {
        ended(CrawlEnding(record: record, contentType: record.contentType, finalURL: record.finalURL))
    }

    /// After a stop nothing more is taken: the links the crawl found but did not fetch are not
    /// items of the report (the next run finds them again), nor are those read ahead.
    func nextBlockAfterStop() -> [NextItem] { [.end] }
}
