import AFGetSupport

/// A list file's first pass, before any transfer (DESIGN.md §8): two different URLs for one
/// destination stop the run (exit 2) naming both lines, identical items are merged, and
/// `--report` may not be where an item is downloaded. The list is read once keeping 8 bytes per
/// item (a hash of its destination); only when two hashes are equal is it read again, looking
/// closer at just those destinations. The run then reads it a last time, as a stream.
public struct ListCheck: Sendable {
    /// The items the run will have: entries not merged into an earlier one, and unusable lines.
    public private(set) var count = 0
    /// Lines of entries merged into an earlier identical one.
    public private(set) var mergedLines: Set<Int> = []
    /// Lines for people: identical items merged.
    public private(set) var notices: [String] = []
    /// Why the run must not start: two items for one file.
    public private(set) var conflict: ItemFailure?
    /// Why the run must not start: `--report` names a file an item downloads.
    public private(set) var reportClash: String?

    /// Reads the list at `path` (a regular file: it is read again) after the command line's
    /// `items`, its own items numbered from `firstIndex`. With `shard`, `count` is of
    /// the items it takes; duplicates are looked for in the whole list, so that every shard
    /// refuses the same list.
    public init(
        list path: String, after items: [DownloadItem], firstIndex: Int, directory: String?, report: String?,
        shard: Shard? = nil
    ) throws(ItemFailure) {
        var claims = DestinationClaims(listName: path, commandLineItems: items)
        var destinations = items.compactMap { claims.key(of: $0) }
        try Self.forEachEntry(in: path, from: firstIndex, directory: directory) { result in
            guard case .entry(_, let item) = result else {
                count += 1  // a line that cannot be used: an item, failed
                return true
            }
            if let key = claims.key(of: item) { destinations.append(key) }
            if shard?.takes(item, beneath: directory) ?? true { count += 1 }
            return true
        }
        destinations.sort()
        var shared: Set<UInt64> = []
        for (earlier, later) in zip(destinations, destinations.dropFirst()) where earlier == later { shared.insert(later) }
        let reportKey = report.map { claims.key(ofPath: $0) }
        if let reportKey, destinations.binarySearchContains(reportKey) { shared.insert(reportKey) }
        guard !shared.isEmpty else { return }

        for item in items where claims.key(of: item).map(shared.contains) == true { _ = claims.claim(item, line: nil) }
        try Self.forEachEntry(in: path, from: firstIndex, directory: directory) { result in
            guard case .entry(let line, let item) = result, let key = claims.key(of: item),
                shared.contains(key)
            else { return true }
            switch claims.claim(item, line: line) {
            case .new:
                break
            case .sameAs(let earlier):
                mergedLines.insert(line)
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
            reportClash = "--report \(report) is where \(claimant) is downloaded; name another file"
        }
    }

    private enum Line {
        /// An entry's URL line and its item.
        case entry(line: Int, item: DownloadItem)
        case unusable
    }

    /// Reads the list through, handing each line that makes an item to `body` until it returns
    /// false.
    private static func forEachEntry(
        in path: String, from firstIndex: Int, directory: String?, _ body: (Line) -> Bool
    ) throws(ItemFailure) {
        var reader = try ListReader(path: path)
        defer { reader.close() }
        var index = firstIndex
        while true {
            let results = reader.next()
            if results.isEmpty { return }
            for result in results {
                guard case .entry(let entry) = result else {
                    guard body(.unusable) else { return }
                    continue
                }
                let item = BatchPlan.item(for: entry, index: index, directory: directory)
                index += 1
                guard body(.entry(line: entry.line, item: item)) else { return }
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
