import AFGetSupport
import Dispatch

/// A recursive download as the driver's source of items, in place of an `ItemFeed`: the driver
/// takes items with `next()` (being woken through `onMore` after `.notYet`) and tells the
/// crawl of each item's end with `ended(_:)`.
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

    private struct State {
        var ready: [NextItem] = []
        var endings: [CrawlEnding] = []
        var finished = false
        var closed = false
        /// The driver was told `.notYet`: wake it with the next item.
        var starving = false
        var wake: (@Sendable () -> Void)?
        var tally = CrawlTally()
        /// Each item's role, from its handing out until the driver has heard it in `ended`.
        var roles: [Int: CrawlRole] = [:]
    }

    /// Items handed to the driver ahead of its asking: they wait at the `-j` gate anyway.
    private static let readAhead = 64

    /// Checks the settings and start URLs (a regex regcomp refuses, a start URL that is no
    /// http(s) URL: exit 2 before any transfer), then starts the crawl thread. Items are
    /// numbered from `firstIndex`.
    public init(settings: CrawlSettings, starts: [String], firstIndex: Int = 0) throws(TransferFailure) {
        // Made here to refuse bad input at once; then moved onto the crawl thread, which alone uses it.
        let frontier = try CrawlFrontier(settings: settings, starts: starts, firstIndex: firstIndex)
        let handOver = FrontierHandOver(frontier)
        startThread(named: "afget-crawl") { [self] in
            run(handOver.take())
        }
    }

    /// Called from the driver: what to call when `next` said `.notYet` and there is more.
    func onMore(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// The next item, from the driver.
    func next() -> NextItem {
        let (next, wakesCrawl) = state.withLock { state -> (NextItem, Bool) in
            if !state.ready.isEmpty {
                return (state.ready.removeFirst(), state.ready.count == Self.readAhead / 2)
            }
            if state.finished { return (.end, false) }
            state.starving = true
            return (.notYet, false)
        }
        if wakesCrawl { work.signal() }
        return next
    }

    /// An item of the crawl ended (from the driver); returns what it was, for the counts: a
    /// robots.txt answered 4xx is no failure. nil for an item that is not the crawl's.
    @discardableResult
    public func ended(_ ending: CrawlEnding) -> CrawlRole? {
        let role = state.withLock { state -> CrawlRole? in
            let role = state.roles.removeValue(forKey: ending.record.info.id)
            if role != nil { state.endings.append(ending) }
            return role
        }
        if role != nil { work.signal() }
        return role
    }

    /// What the crawl counted so far (skips by rule, pages read, pages removed).
    public var tally: CrawlTally { state.withLock { $0.tally } }

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
            var roles: [Int: CrawlRole] = [:]
            var finished = false
            do throws(TransferFailure) {
                for ending in endings { try frontier.ended(ending) }
                fill: while items.count < room {
                    switch try frontier.next() {
                    case .item(let item):
                        roles[item.index] = frontier.role(ofItem: item.index)
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
            let wake = state.withLock { state -> (@Sendable () -> Void)? in
                state.ready += items
                state.roles.merge(roles) { $1 }
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
