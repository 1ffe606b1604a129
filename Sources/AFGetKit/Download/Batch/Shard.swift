import AFGetSupport

/// `--shard K/N`: this run takes the items whose destination hashes to K modulo N, so N runs
/// (on N machines) given the same list cover it exactly once, whatever the lines' order. The
/// destination is taken as the list names it, without `-d`, so each machine may download into a
/// directory of its own.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Parses "K/N" with 0 ≤ K < N.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0..<count).contains(index)
        else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether this shard takes `item`, downloaded beneath `directory` (`-d`): its destination
    /// is hashed without that directory. An item with no file (standard output) goes to shard 0.
    func takes(_ item: DownloadItem, beneath directory: String?) -> Bool {
        guard var path = item.plannedPath.map(BatchPlan.normalized) else { return index == 0 }
        if let directory = directory.map(BatchPlan.normalized), !directory.isEmpty, path.hasPrefix(directory + "/") {
            path.removeFirst(directory.count + 1)
        }
        return StableHash.of(path) % UInt64(count) == UInt64(index)
    }

    public var description: String { "\(index)/\(count)" }
}
