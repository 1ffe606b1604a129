import AFGetProgress
import AFGetSupport
import Dispatch
import Synchronization

/// What the runner takes next from its feed.
enum NextItem: Sendable {
    case item(DownloadItem)
    /// A list line that cannot be used, or a duplicate refused as it arrived: one item, failed.
    case unusable(ItemFailure)
    /// A line for people (identical items merged).
    case notice(String)
    /// Nothing yet: the feed calls the runner's wake-up when there is.
    case notYet
    case end
}

/// A run's items in input order, as they become known: the command line's, then a list's,
/// read on a thread of its own a little ahead of the transfers (`readAhead` items), so a list
/// of any length starts at once and costs the memory of a few items; from a pipe, each item
/// starts as soon as its lines have arrived.
public final class ItemFeed: Sendable {
    /// How many items there are, when known before the run: no list, or a list file's first pass.
    public let knownCount: Int?
    /// The command line's items, before the list's; `checkDestination` looks at them.
    public let leadingItems: [DownloadItem]
    /// Reading a list file to its end after a stop costs nothing worth sparing; a pipe might
    /// never end.
    private let listIsFile: Bool
    private let state = PthreadMutex(State())
    /// Signalled when the reader, `readAhead` items ahead of the runner, may read again: once
    /// the runner has taken what was read, a block at a time, so the reader wakes once per
    /// block rather than once per item.
    private let room = DispatchSemaphore(value: 0)
    /// Signalled once per block the reader adds, and at the end.
    private let added = DispatchSemaphore(value: 0)

    private struct State {
        var leading: [DownloadItem] = []
        var leadingTaken = 0
        var read: [NextItem] = []
        var readTaken = 0
        var ended = false
        var closed = false
        /// The runner was told `.notYet`: wake it with the next item.
        var starving = false
        /// The reader is `readAhead` items ahead and waits for `room`.
        var readerWaits = false
        var wake: (@Sendable () -> Void)?
        /// With a shard: the list's items seen and taken so far.
        var seen = 0
        var taken = 0
    }

    /// `--shard K/N`, and how many command-line items it saw (`leadingItems` are those it took).
    private let shard: Shard?
    private let leadingSeen: Int

    private static let readAhead = 256

    /// Items known in full (the command line's, or resume data's): those of `all` that `shard`
    /// takes.
    public init(items all: [DownloadItem], shard: Shard? = nil) {
        let items = Self.taken(from: all, by: shard)
        knownCount = items.count
        leadingItems = items
        self.shard = shard
        leadingSeen = all.count
        listIsFile = true
        state.withLock {
            $0.leading = items
            $0.ended = true
        }
    }

    /// The command line's items (those of `all` that `shard` takes), then the list at `path`
    /// ("-": standard input), its items numbered from `firstIndex` (the number of command-line
    /// URLs, merged or not). `firstPass` is a list file's check (its count, the items merged
    /// into earlier ones and the documents it read); without it, as for a pipe, duplicates and
    /// a `report` over an item are refused as they arrive, against every command-line item, so
    /// every shard refuses alike.
    /// A Metalink document the list names stands for its files: those `firstPass` read, else
    /// read (or fetched) by `documents` as its line arrives.
    public init(
        items all: [DownloadItem], list path: String, firstIndex: Int, directory: String?,
        firstPass: ListCheck?, report: String? = nil, shard: Shard? = nil, onConflict: ConflictPolicy = .error,
        documents: ListDocuments
    ) throws(ItemFailure) {
        let opened = try ListReader(path: path)
        let items = Self.taken(from: all, by: shard)
        knownCount = firstPass.map { items.count + $0.count }
        leadingItems = items
        self.shard = shard
        leadingSeen = all.count
        listIsFile = opened.isRegularFile
        state.withLock { $0.leading = items }
        var arrivalClaims: DestinationClaims?
        var reportKey: UInt64?
        if firstPass == nil {
            var claims = DestinationClaims(listName: opened.name, commandLineItems: all, onConflict: onConflict)
            for item in all { _ = claims.claim(item, line: nil) }
            reportKey = report.map { claims.key(ofPath: $0) }
            arrivalClaims = claims
        }
        let merged = firstPass?.mergedItems ?? []
        let renamed = firstPass?.renamedItems ?? [:]
        let documentsRead = firstPass?.documents ?? [:]
        startThread(named: "afget-list") { [self, arrivalClaims, reportKey] in
            var reader = opened
            var claims = arrivalClaims
            var index = firstIndex
            reading: while true {
                let results = reader.next()
                if results.isEmpty { break }
                // What one read gave is handed over together: a file's lines come in blocks,
                // a pipe's as they arrive.
                var block: [NextItem] = []
                defer { if !block.isEmpty { _ = add(block) } }
                for result in results {
                    let entries: [InputList.Entry]
                    switch result {
                    case .problem(let failure):
                        block.append(.unusable(failure))
                        continue
                    case .entry(let entry):
                        entries = [entry]
                    case .document(let line):
                        // nil: the run was stopped while the document was fetched.
                        guard let read = documentsRead[line.line] ?? documents.entries(for: line) else {
                            break reading
                        }
                        switch read {
                        case .success(let files):
                            entries = files
                        case .failure(let failure):
                            block.append(.unusable(failure))
                            continue
                        }
                    }
                    for entry in entries {
                        let next: NextItem?
                        let item = BatchPlan.item(for: entry, index: index, directory: directory)
                        index += 1
                        if let shard {
                            let taken = shard.takes(item, beneath: directory)
                            state.withLock {
                                $0.seen += 1
                                if taken { $0.taken += 1 }
                            }
                            guard taken else { continue }
                        }
                        if merged.contains(item.index) {
                            next = nil  // said before the run
                        } else if let path = renamed[item.index] {
                            next = .item(item.renamed(to: path))  // said before the run
                        } else if let reportKey, let report, claims?.key(of: item) == reportKey {
                            next = .unusable(
                                ItemFailure(
                                    item: entry.source,
                                    TransferFailure(.input(.reportIsThisItem(report: report))),
                                    url: item.shownURL))
                        } else {
                            switch claims?.claim(item, line: entry.line) ?? .new {
                            case .new: next = .item(item)
                            case .renamed(let renamed, let notice):
                                block.append(.notice(notice))
                                next = .item(renamed)
                            case .sameAs(let earlier):
                                next = .notice(DestinationClaims.mergeNotice(item, earlier: earlier))
                            case .conflict(let failure): next = .unusable(failure)
                            }
                        }
                        if let next { block.append(next) }
                    }
                }
                guard add(block) else { break reading }
                block = []
            }
            reader.close()
            end()
        }
    }

    /// Items a producer finds as it goes (an S3 prefix's listing, `S3Listing`), on a thread of
    /// its own named `thread`, read ahead of the transfers as a list's lines are; `shard` takes
    /// its share of them as they come. The producer hands each block to `deliver`, which waits
    /// while the producer is far enough ahead and says false once the run is over; the feed ends
    /// when the producer returns. After a stop nothing more is asked of it.
    init(
        thread: String, shard: Shard? = nil, directory: String?,
        producer: @escaping @Sendable (_ deliver: ([NextItem]) -> Bool) -> Void
    ) {
        knownCount = nil
        leadingItems = []
        self.shard = shard
        leadingSeen = 0
        listIsFile = false
        startThread(named: thread) { [self] in
            producer { block in
                guard let shard else { return add(block) }
                let taken = block.filter { next in
                    guard case .item(let item) = next else { return true }
                    let takes = shard.takes(item, beneath: directory)
                    state.withLock {
                        $0.seen += 1
                        if takes { $0.taken += 1 }
                    }
                    return takes
                }
                return add(taken)
            }
            end()
        }
    }

    /// The command-line items `shard` takes: a URL's file lies in `-d`, its output's directory.
    private static func taken(from items: [DownloadItem], by shard: Shard?) -> [DownloadItem] {
        guard let shard else { return items }
        return items.filter { item in
            let directory: String? = if case .directory(let directory) = item.output { directory } else { nil }
            return shard.takes(item, beneath: directory)
        }
    }

    /// The items this run's shard took of those it saw, once the feed has ended.
    var shardCount: ShardCount? {
        guard let shard else { return nil }
        return state.withLock {
            ShardCount(name: shard.description, taken: leadingItems.count + $0.taken, seen: leadingSeen + $0.seen)
        }
    }

    /// Called from the runner's task: what to call when `next` said `.notYet` and there is more.
    func onMore(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// What the feed has for the runner now, at most `readAhead` entries in one hand-over:
    /// items in order, or `[.notYet]` (the feed calls the runner's wake-up when there is more),
    /// or `[.end]`.
    func nextBlock() -> [NextItem] {
        let (block, wakesReader) = state.withLock { state -> ([NextItem], Bool) in
            if state.leadingTaken < state.leading.count {
                let block = state.leading[state.leadingTaken...].prefix(Self.readAhead)
                state.leadingTaken += block.count
                return (block.map(NextItem.item), false)
            }
            if state.readTaken < state.read.count {
                let block = Array(state.read[state.readTaken...])
                state.read.removeAll(keepingCapacity: true)
                state.readTaken = 0
                defer { state.readerWaits = false }
                return (block, state.readerWaits)
            }
            if state.ended { return ([.end], false) }
            state.starving = true
            return ([.notYet], false)
        }
        if wakesReader { room.signal() }
        return block
    }

    /// After the run stopped: the items not started, a block at a time, for the report. A list
    /// file is read on to its end; from a pipe, only what has arrived. Ends with `[.end]`.
    func nextBlockAfterStop() -> [NextItem] {
        // A pipe's writer may go on: only what has arrived is reported.
        if !listIsFile { close() }
        while true {
            let block = nextBlock()
            guard case .notYet = block.first else { return block }
            guard listIsFile else { return [.end] }
            added.wait()
        }
    }

    /// Stops the reader: the run is over.
    func close() {
        state.withLock { $0.closed = true }
        room.signal()
    }

    /// Adds what the reader read, then waits while the reader is far enough ahead; false once
    /// the run is over.
    private func add(_ block: [NextItem]) -> Bool {
        let (closed, wake, isAhead) = state.withLock { state -> (Bool, (@Sendable () -> Void)?, Bool) in
            if state.closed { return (true, nil, false) }
            state.read.append(contentsOf: block)
            state.readerWaits = state.read.count - state.readTaken >= Self.readAhead
            defer { state.starving = false }
            return (false, state.starving ? state.wake : nil, state.readerWaits)
        }
        if closed { return false }
        added.signal()
        wake?()
        if isAhead { room.wait() }
        return true
    }

    private func end() {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.ended = true
            defer { state.starving = false }
            return state.starving ? state.wake : nil
        }
        added.signal()
        wake?()
    }
}

/// The driver's place in its source: a block taken from the source (one lock for many items),
/// and the next of its items.
struct FeedCursor {
    private var block: [NextItem] = []
    private var index = 0

    mutating func next(from source: any ItemSource) -> NextItem {
        if index == block.count {
            block = source.nextBlock()
            index = 0
        }
        let next = block[index]
        switch next {
        case .notYet: block = []  // asked again next time
        case .end: break  // and stays at the end
        default: index += 1
        }
        return next
    }

    /// The items taken from the feed but not handed out (the run stopped before them).
    mutating func takeRest() -> [NextItem] {
        defer { (block, index) = ([], 0) }
        return block[index...].filter { if case .end = $0 { false } else if case .notYet = $0 { false } else { true } }
    }
}
