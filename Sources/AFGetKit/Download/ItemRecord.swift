/// What `--report` says of one item (DESIGN.md §8).
public struct ItemRecord: Sendable {
    public enum Outcome: String, Sendable {
        case downloaded, skipped, failed
    }

    public var info: ItemInfo
    public var outcome: Outcome = .failed
    public var httpStatus: Int?
    /// The size of the file at `path` when it exists.
    public var bytes: Int64 = 0
    public var sha256: String?
    public var attempts = 0
    public var failure: ItemFailure?

    public init(info: ItemInfo) {
        self.info = info
    }
}
