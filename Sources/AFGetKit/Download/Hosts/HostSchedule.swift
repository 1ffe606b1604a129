import AFGetProgress
import AFGetSupport

/// A batch's rules per host, so that one host's trouble costs the others nothing: at most
/// `maxPerHost` items of a host at a time, a host's `Retry-After` holding all its items (not
/// only the one it answered), no more of its items at once than it showed it takes (an FTP
/// server turning a connection away beside the ones it serves), its items started at most as
/// often as it asks (a robots.txt's Crawl-delay, `pace`), and a host whose items keep
/// failing the same way (no address, no connection) given up for the rest of the run. A host is
/// an origin: scheme, name and port.
///
/// Items that may not start yet are set aside here, in list order, while items of other hosts
/// take the free places. Nothing here touches a clock or a socket: the driver says what time it
/// is and what happened, and the schedule answers what may start.
struct HostSchedule<Item> {
    /// What becomes of an item that arrives.
    enum Arrival: Equatable {
        case start
        case setAside
        /// Its host was given up: the item fails at once, untried.
        case notTried(FailureReason)
    }

    private struct Host {
        var running = 0
        /// Running items the host turned away, each waiting for a place (`turnedAway`).
        var waitingForPlace = 0
        /// Running items with a request out (`transferring`).
        var transferring = 0
        /// How many of its items it takes at once, as it showed by turning some away, and the
        /// number last said.
        var takes: Int?
        var saidTakes: Int?
        /// Until when its waiting items wait after a refusal that showed no limit (`turnedAway`).
        var pausedUntil: Double?
        /// Until when (monotonic seconds) its items wait, as the host asked, and how it asked.
        var heldUntil: Double?
        var holdCause = HoldCause.retryAfter
        /// Seconds between the starts of its items (Crawl-delay), and when the next may start.
        var pace: Double?
        var nextStartAt: Double?
        /// The hold is not told yet: it came with an item's last answer (`hold(sayNow:)`).
        var holdUnsaid = false
        /// The failure its last items ended with, and how many in a row.
        var streak: (reason: FailureReason, count: Int)?
        /// Given up, after this failure.
        var givenUp: FailureReason?
        // What the summary says of the host.
        var holds = 0
        var itemsHeld = 0
        var notTried = 0

        /// One of its items starts now: counted as running, and the next held back by its pace.
        mutating func started(now: Double) {
            running += 1
            if let pace { nextStartAt = now + pace }
        }
    }

    let rules: HostRules
    private var hosts: [String: Host] = [:]
    /// Items set aside, in the order they arrived.
    private var setAside: [(item: Item, host: String)] = []

    init(rules: HostRules) {
        self.rules = rules
    }

    /// Items waiting here for their host.
    var setAsideCount: Int { setAside.count }

    /// Whether items of `host` wait here.
    func hasSetAside(_ host: String) -> Bool {
        setAside.contains { $0.host == host }
    }

    /// An item of `host` arrives: it starts (counted as running), waits, or fails untried.
    mutating func arrive(_ item: Item, host: String, now: Double) -> Arrival {
        var state = hosts[host, default: Host()]
        defer { hosts[host] = state }
        if let reason = state.givenUp {
            state.notTried += 1
            return .notTried(reason)
        }
        // Items that arrived earlier go first: set aside, or turned away and waiting for a place.
        if mayStart(state, now: now) && state.waitingForPlace == 0 && !setAside.contains(where: { $0.host == host }) {
            state.started(now: now)
            return .start
        }
        if state.heldUntil.map({ $0 > now }) == true { state.itemsHeld += 1 }
        setAside.append((item, host))
        return .setAside
    }

    private func mayStart(_ state: Host, now: Double) -> Bool {
        if let until = state.heldUntil, until > now { return false }
        if let next = state.nextStartAt, next > now { return false }
        if let until = state.pausedUntil, until > now { return false }
        let connected = state.running - state.waitingForPlace
        if let cap = rules.maxPerHost, connected >= cap { return false }
        if let takes = state.takes, connected >= takes { return false }
        return true
    }

    /// The first item set aside whose host may take it now, counted as running.
    mutating func nextReady(now: Double) -> (item: Item, host: String)? {
        var passed = Set<String>()
        for (index, entry) in setAside.enumerated() where !passed.contains(entry.host) {
            // An item behind another of its host waits for that one: list order within a host.
            passed.insert(entry.host)
            guard let state = hosts[entry.host], state.waitingForPlace == 0, mayStart(state, now: now) else { continue }
            setAside.remove(at: index)
            var started = state
            started.started(now: now)
            hosts[entry.host] = started
            return entry
        }
        return nil
    }

    /// One of `host`'s running items has a request out (`true`), or no longer has (`false`):
    /// what a refusal is measured against.
    mutating func transferring(_ host: String, _ isTransferring: Bool) {
        // Read and written back rather than changed in place: the dictionary's modify
        // accessor allocated a frame each time, twice per item.
        guard var state = hosts[host] else { return }
        state.transferring += isTransferring ? 1 : -1
        hosts[host] = state
    }

    /// A running item of `host` was turned away by the server (an FTP 421 before the login: no
    /// more connections from this client). Beside others of the host's items with requests out
    /// — at most `besideAtMost` of them connected, the `-j` places but this one's; the rest wait
    /// at the gate — that shows how many it takes: the item waits for a place (`takePlace`)
    /// instead of a backoff, and no more of the host's items run at once from then on (items
    /// turned away together each lower the count, to what the server really serves). A refusal
    /// `justFreed` (within `pause` of an item of the host ending) shows nothing new: the server
    /// may still count the session that ended (vsftpd does for a moment), so the host's waiting
    /// items only pause. False when no other item of the host can be connected: the refusal
    /// then says nothing of a limit, and the item retries as after any transient failure.
    mutating func turnedAway(_ host: String, besideAtMost: Int, justFreed: Bool, now: Double) -> Bool {
        guard var state = hosts[host] else { return false }
        let beside = min(state.transferring, besideAtMost)
        guard beside > 0 else { return false }
        state.waitingForPlace += 1
        if justFreed {
            state.pausedUntil = now + Self.pause
        } else {
            state.takes = min(state.takes ?? .max, beside)
        }
        hosts[host] = state
        return true
    }

    static var pause: Double { 0.2 }

    /// `host` asks for `seconds` between the starts of its items (a robots.txt's Crawl-delay):
    /// the items that arrive meanwhile are set aside until then.
    mutating func pace(_ host: String, every seconds: Double) {
        var state = hosts[host, default: Host()]
        state.pace = seconds
        hosts[host] = state
    }

    /// When `host`'s waiting items may next be given a place, if a pause, a hold or its pace
    /// keeps them waiting now (rather than the items it runs).
    func waitingUntil(_ host: String, now: Double) -> Double? {
        guard let state = hosts[host] else { return nil }
        let until = max(state.pausedUntil ?? now, state.heldUntil ?? now, state.nextStartAt ?? now)
        return until > now ? until : nil
    }

    /// A place for one of `host`'s items that wait for one, when the host has room now.
    mutating func takePlace(_ host: String, now: Double) -> Bool {
        guard var state = hosts[host], state.waitingForPlace > 0, mayStart(state, now: now) else { return false }
        state.waitingForPlace -= 1
        hosts[host] = state
        return true
    }

    /// An item that waited for a place ends without one (the run stopped, the host was given up).
    mutating func stopsWaiting(_ host: String) {
        guard var state = hosts[host] else { return }
        state.waitingForPlace -= 1
        hosts[host] = state
    }

    /// How many items `host` takes at once, when that is fewer than last said (said once per
    /// limit). Asked as its first waiting item gets a place: by then every item turned away in
    /// the same moment has been counted.
    mutating func limitToSay(_ host: String) -> Int? {
        guard var state = hosts[host], let takes = state.takes, takes < state.saidTakes ?? .max else { return nil }
        state.saidTakes = takes
        hosts[host] = state
        return takes
    }

    /// When the next hold ends, for the driver to look again then.
    func nextHoldEnd(after now: Double) -> Double? {
        hosts.values.compactMap(\.heldUntil).filter { $0 > now }.min()
    }

    /// Until when `host`'s items wait, if they do now.
    func heldUntil(_ host: String, now: Double) -> Double? {
        hosts[host]?.heldUntil.flatMap { $0 > now ? $0 : nil }
    }

    /// `host` asked to wait until `until` (a 429 or 503 with Retry-After, or S3's SlowDown): true
    /// for a new hold the driver tells now; a later end than a hold's extends it, untold. Without
    /// `sayNow` (the answer ended its item, which said it, and nothing of the host waits yet) a
    /// new hold is told only once it keeps an item waiting (`holdToSay`): after a single item, or
    /// the last of its host, "its items wait" would promise a wait of nothing.
    mutating func hold(
        _ host: String, until: Double, now: Double, cause: HoldCause = .retryAfter, sayNow: Bool = true
    ) -> Bool {
        var state = hosts[host, default: Host()]
        defer { hosts[host] = state }
        let isNew = state.heldUntil.map { $0 <= now } ?? true
        if isNew {
            state.holds += 1
            state.holdUnsaid = !sayNow
            state.holdCause = cause
        }
        state.heldUntil = max(state.heldUntil ?? until, until)
        return isNew && sayNow
    }

    /// The seconds left of `host`'s hold and its cause, once, when it was not told as it began
    /// and an item now waits for it.
    mutating func holdToSay(_ host: String, now: Double) -> (seconds: Double, cause: HoldCause)? {
        guard var state = hosts[host], state.holdUnsaid else { return nil }
        state.holdUnsaid = false
        hosts[host] = state
        return state.heldUntil.flatMap { $0 > now ? ($0 - now, state.holdCause) : nil }
    }

    /// How an item of `host` that was running ended.
    enum Ending: Equatable {
        case succeeded
        case failed(FailureReason)
        /// Stopped by the run, or by something that says nothing of the host.
        case other
    }

    /// What the driver does after an item ended.
    struct GivingUp {
        let reason: FailureReason
        let inARow: Int
        /// The host's items that were set aside: they fail untried.
        let untried: [Item]
    }

    /// An item of `host` ended; when that makes the host given up, what to do about it.
    mutating func ended(host: String, _ ending: Ending) -> GivingUp? {
        guard var state = hosts[host] else { return nil }
        defer { hosts[host] = state }
        state.running -= 1
        // Started before the host was given up, and ended by it untried: waiting to retry,
        // waiting at the `-j` gate, or still connecting.
        if case .failed(.connection(.hostGivenUp)) = ending { state.notTried += 1 }
        guard state.givenUp == nil else { return nil }
        switch ending {
        case .failed(let reason) where reason.isHostDown:
            // The same kind of failure, whatever libcurl's words for it.
            let count = state.streak?.reason.code == reason.code ? state.streak!.count + 1 : 1
            state.streak = (reason, count)
            guard let limit = rules.giveUpAfter, count >= limit else { return nil }
            state.givenUp = reason
            let untried = setAside.filter { $0.host == host }.map(\.item)
            setAside.removeAll { $0.host == host }
            state.notTried += untried.count
            return GivingUp(reason: reason, inARow: count, untried: untried)
        case .succeeded, .failed:
            state.streak = nil
        case .other:
            break
        }
        return nil
    }

    /// Whether `host` was given up (its item in a retry's wait ends instead of trying again).
    func givenUp(_ host: String) -> FailureReason? {
        hosts[host]?.givenUp
    }

    /// What the summary says of the hosts held back or given up, in host order.
    var notes: [HostNote] {
        hosts.keys.sorted().compactMap { name in
            let state = hosts[name]!
            guard state.holds > 0 || state.givenUp != nil else { return nil }
            return HostNote(
                host: name, holds: state.holds, itemsHeld: state.itemsHeld, givenUp: state.givenUp,
                notTried: state.notTried)
        }
    }
}

extension HostSchedule {
    /// The items still set aside, taken out: the run stopped before their hosts had room.
    mutating func takeSetAside() -> [Item] {
        defer { setAside = [] }
        return setAside.map(\.item)
    }
}

extension HostSchedule.Ending {
    /// What an item's outcome says of its host.
    init(_ outcome: ItemOutcome) {
        switch outcome {
        case .done: self = .succeeded
        case .failed(let failure): self = .failed(failure.failure.reason)
        case .skipped, .stopped: self = .other
        }
    }
}
