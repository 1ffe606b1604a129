import Glibc
import Synchronization

/// Files with no name that downloads opened and left empty (the response was an error, or the
/// item ended before its body), kept open for the next download into the same directory. A list
/// of many 404s then allocates no inode per item: ext4 searches past recently freed inodes one
/// by one, which made a million 404s take minutes of system time (docs/performance.md).
final class SpareFiles: Sendable {
    private let spare = Mutex<[String: [Int32]]>([:])
    /// Spare files kept per directory: about as many as transfers run at once.
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    deinit {
        spare.withLock { $0.values.joined().forEach { close($0) } }
    }

    /// An empty file with no name in `directory`, its times made now; nil when there is none.
    func take(in directory: String) -> Int32? {
        guard let descriptor = spare.withLock({ $0[directory]?.popLast() }) else { return nil }
        _ = futimens(descriptor, nil)
        return descriptor
    }

    /// Keeps an empty file with no name for the next download into `directory`; false when
    /// there are enough, and the caller closes it.
    func keep(_ descriptor: Int32, in directory: String) -> Bool {
        spare.withLock { spare in
            guard spare[directory, default: []].count < limit else { return false }
            spare[directory, default: []].append(descriptor)
            return true
        }
    }
}
