import AFGetSupport
import CurlCore

/// A list file's first pass, before any transfer (DESIGN.md §8): two different URLs for one
/// destination stop the run (exit 2) naming both lines, identical items are merged, and
/// `--report` may not be where an item is downloaded. The list is read once keeping 8 bytes per
/// item (a hash of its destination), reading of each URL only what names its file; only when two
/// hashes are equal is it read again, looking closer at just those destinations. The run then reads it a last time, as a stream. A
/// Metalink document the list names is read (or fetched) once, here: its files are items like
/// the list's own, and the run takes them from `documents`.
public struct ListCheck: Sendable {
    /// The items the run will have: entries not merged into an earlier one, and unusable lines.
    public private(set) var count = 0
    /// The indexes of items merged into an earlier identical one.
    public private(set) var mergedItems: Set<Int> = []
    /// The paths of items renamed by `--on-conflict rename`, by their indexes.
    public private(set) var renamedItems: [Int: String] = [:]
    /// What each document line (by its number) stands for: its files, or why it cannot be used.
    public private(set) var documents: [Int: Result<[InputList.Entry], ItemFailure>] = [:]
    /// The document being fetched when the run was stopped (Ctrl-C): the check is not complete.
    public private(set) var stoppedFetching: String?
    /// Lines for people: identical items merged.
    public private(set) var notices: [String] = []
    /// Why the run must not start: two items for one file.
    public private(set) var conflict: ItemFailure?
    /// Why the run must not start: `--report` names a file an item downloads.
    public private(set) var reportClash: InputFailure?

    /// Reads the list at `path` (a regular file: it is read again) after the command line's
    /// `items`, its own items numbered from `firstIndex`. With `shard`, `count` is of
    /// the items it takes; duplicates are looked for in the whole list, so that every shard
    /// refuses the same list. Blocks while a document is fetched: see `made`.
    public init(
        list path: String, after items: [DownloadItem], firstIndex: Int, directory: String?, report: String?,
        shard: Shard? = nil, onConflict: ConflictPolicy = .error, documents reader: ListDocuments
    ) throws(ItemFailure) {
        var claims = DestinationClaims(listName: path, commandLineItems: items, onConflict: onConflict)
        var destinations = items.compactMap { claims.key(of: $0) }
        var documents: [Int: Result<[InputList.Entry], ItemFailure>] = [:]
        defer { self.documents = documents }
        stoppedFetching = try Self.forEachEntry(
            in: path, reading: .destination, from: firstIndex, directory: directory, documents: &documents, reader: reader
        ) { result in
            guard case .entry(_, let item) = result else {
                count += 1  // a line that cannot be used: an item, failed
                return true
            }
            if let key = claims.key(of: item) { destinations.append(key) }
            if shard?.takes(item, beneath: directory) ?? true { count += 1 }
            return true
        }
        guard stoppedFetching == nil else { return }
        destinations.sort()
        var shared: Set<UInt64> = []
        for (earlier, later) in zip(destinations, destinations.dropFirst()) where earlier == later { shared.insert(later) }
        let reportKey = report.map { claims.key(ofPath: $0) }
        if let reportKey, destinations.binarySearchContains(reportKey) { shared.insert(reportKey) }
        guard !shared.isEmpty else { return }

        for item in items where claims.key(of: item).map(shared.contains) == true { _ = claims.claim(item, line: nil) }
        _ = try Self.forEachEntry(
            in: path, reading: .all, from: firstIndex, directory: directory, documents: &documents, reader: reader
        ) {
            result in
            guard case .entry(let line, let item) = result, let key = claims.key(of: item),
                shared.contains(key)
            else { return true }
            // A new name passes over every name the list gives, claimed in this pass or not.
            switch claims.claim(item, line: line, reserved: destinations.binarySearchContains) {
            case .new:
                break
            case .renamed(let renamed, let notice):
                renamedItems[item.index] = renamed.plannedPath
                if shard?.takes(item, beneath: directory) ?? true { notices.append(notice) }
            case .sameAs(let earlier):
                mergedItems.insert(item.index)
                if shard?.takes(item, beneath: directory) ?? true {
                    count -= 1
                    notices.append(DestinationClaims.mergeNotice(item, earlier: earlier))
                }
            case .conflict(let failure):
                conflict = failure
                return false
            }
            return true
        }
        if let report, let claimant = claims.claimant(of: report) {
            reportClash = .reportIsDownload(report: report, item: claimant)
        }
    }

    /// The run's check of a list file: made on a thread of its own, since fetching a document
    /// the list names waits, and must not hold one of the few threads tasks run on.
    public static func made(
        list path: String, after items: [DownloadItem], firstIndex: Int, directory: String?, report: String?,
        shard: Shard?, onConflict: ConflictPolicy, documents: ListDocuments
    ) async -> Result<ListCheck, ItemFailure> {
        await withCheckedContinuation { continuation in
            startThread(named: "afget-check") {
                continuation.resume(
                    returning: Result { () throws(ItemFailure) in
                        try ListCheck(
                            list: path, after: items, firstIndex: firstIndex, directory: directory, report: report,
                            shard: shard, onConflict: onConflict, documents: documents)
                    })
            }
        }
    }

    private enum Line {
        /// An entry's line (for a document's file, the document's) and its item.
        case entry(line: Int, item: DownloadItem)
        case unusable
    }

    /// Reads the list through, handing each entry's item to `body` until it returns false; a
    /// document line hands each of its files, read into `documents` the first time. Returns the
    /// document being fetched when the run was stopped, which ends the reading.
    private static func forEachEntry(
        in path: String, reading: CurlURL.Reading, from firstIndex: Int, directory: String?,
        documents: inout [Int: Result<[InputList.Entry], ItemFailure>], reader documentReader: ListDocuments,
        _ body: (Line) -> Bool
    ) throws(ItemFailure) -> String? {
        var reader = try ListReader(path: path, reading: reading)
        defer { reader.close() }
        var index = firstIndex
        while true {
            let results = reader.next()
            if results.isEmpty { return nil }
            for result in results {
                let entries: [InputList.Entry]
                switch result {
                case .problem:
                    guard body(.unusable) else { return nil }
                    continue
                case .entry(let entry):
                    entries = [entry]
                case .document(let line):
                    if documents[line.line] == nil {
                        guard let read = documentReader.entries(for: line) else {
                            return removingPassword(from: line.location)
                        }
                        documents[line.line] = read
                    }
                    guard case .success(let files) = documents[line.line] else {
                        guard body(.unusable) else { return nil }
                        continue
                    }
                    entries = files
                }
                for entry in entries {
                    let item = BatchPlan.item(for: entry, index: index, directory: directory)
                    index += 1
                    guard body(.entry(line: entry.line, item: item)) else { return nil }
                }
            }
        }
    }
}

extension [UInt64] {
    /// In a sorted array.
    fileprivate func binarySearchContains(_ value: UInt64) -> Bool {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }
}
