import AFGetSupport

/// A list file's first pass, before any transfer (DESIGN.md §8): two different URLs for one
/// destination stop the run (exit 2) naming both lines, identical items are merged, and
/// `--report` may not be where an item is downloaded. Only a hash per destination is kept, so
/// the list is checked without holding it; the run then reads it again as a stream.
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

    /// Reads the list at `path` after the command line's `items`; a report path that is where
    /// an item is downloaded is a conflict.
    /// With `shard`, `count` is of the items it takes; duplicates are looked for in the whole
    /// list, so that every shard refuses the same list.
    public init(
        list path: String, after items: [DownloadItem], directory: String?, report: String?, shard: Shard? = nil
    ) throws(ItemFailure) {
        var reader = try ListReader(path: path)
        defer { reader.close() }
        var claims = DestinationClaims(listName: reader.name, commandLineURLs: items.map(\.source))
        for item in items { _ = claims.claim(item, line: nil) }
        var index = items.count
        while conflict == nil {
            let results = reader.next()
            if results.isEmpty { break }
            for result in results {
                guard case .entry(let entry) = result else {
                    count += 1  // a line that cannot be used: an item, failed
                    continue
                }
                let item = BatchPlan.item(for: entry, index: index, directory: directory)
                index += 1
                let taken = shard?.takes(undirected: BatchPlan.item(for: entry, index: 0, directory: nil)) ?? true
                switch claims.claim(item, line: entry.line) {
                case .new:
                    if taken { count += 1 }
                case .sameAs(let earlier):
                    mergedLines.insert(entry.line)
                    if taken {
                        notices.append("afget: \(item.source): same URL and destination as \(earlier); downloading it once")
                    }
                case .conflict(let failure):
                    conflict = failure
                }
            }
        }
        if let report, let claimant = claims.claimant(of: report) {
            reportClash = "--report \(report) is where \(claimant) is downloaded; name another file"
        }
    }
}
