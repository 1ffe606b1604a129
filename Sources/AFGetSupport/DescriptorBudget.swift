import Glibc

/// What a run may keep open within the limit on open files (`ulimit -n`). Each transfer holds a
/// socket per connection, its part file, briefly its resume data and, while a host name is
/// looked up, libcurl's resolver pair; with a gate, another item waits behind it with its part
/// file open; finished files waiting to be moved into place hold theirs. What the process has
/// open already (standard streams, the runtime's) is counted, and a few are kept spare: the curl
/// thread may not have made its wakeup pair yet, and libdispatch opens a file under /proc now
/// and then and stops the process when it cannot, so running out is a crash, not an error.
public struct DescriptorBudget: Sendable {
    /// Transfers at once: as many as asked (`-j`), or fewer when the limit cannot hold them.
    public let transfers: Int
    /// Finished files waiting to be moved into place beyond the transfers: enough for commit
    /// rounds of many files (docs/performance.md), and at most a quarter of what is free.
    public let extraCommits: Int
    /// The limit the budget was made for.
    public let limit: Int

    static let spare = 6

    /// Refuses (exit 3) when not even one transfer fits.
    public init(
        asked: Int, connectionsEach: Int, gated: Bool,
        limit: Int = Self.openFileLimit(), openNow: Int = Self.openDescriptors()
    ) throws(TransferFailure) {
        let perTransfer = connectionsEach + 3 + (gated ? 1 : 0)
        let free = limit - openNow - Self.spare
        guard free >= perTransfer else {
            throw TransferFailure(.file(.tooFewDescriptors(limit: limit, open: openNow, needed: perTransfer + Self.spare)))
        }
        let commits = min(256, free / 4)
        transfers = max(1, min(asked, (free - commits) / perTransfer))
        extraCommits = min(commits, free - transfers * perTransfer)
        self.limit = limit
    }

    /// For `afget request` and `afget upload`: one transfer must fit.
    public static func requireRoomForOneTransfer() throws(TransferFailure) {
        _ = try DescriptorBudget(asked: 1, connectionsEach: 1, gated: false)
    }

    /// Raises the soft limit on open files to the hard one, as the soft default (often 1024)
    /// is kept low only for programs that use select(); libcurl here polls. Done once at start.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The soft limit on open files.
    public static func openFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 64 }
        return Int(min(limit.rlim_cur, rlim_t(Int32.max)))
    }

    /// Descriptors open now, counted in /proc/self/fd (less the one reading it); a generous
    /// guess when that cannot be read.
    public static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 32 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return count - 1
    }
}
