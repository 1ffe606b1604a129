import AFGetSupport
import Glibc
import Synchronization

/// Files with no name that downloads opened and left empty (the response was an error, or the
/// item ended before its body), kept open for the next download into the same directory. A list
/// of many 404s then allocates no inode per item: ext4 searches past recently freed inodes one
/// by one, which made a million 404s take minutes of system time (docs/performance.md).
final class SpareFiles: Sendable {
    /// Oldest first, across directories.
    private let spare = PthreadMutex<[(directory: String, descriptor: Int32)]>([])
    /// Spare files kept in all: about as many as transfers run at once.
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    deinit {
        spare.withLock { $0.forEach { close($0.descriptor) } }
    }

    /// An empty file with no name in `directory`, nil when there is none. Its times are those
    /// of its first use: the body's writes set them, and a file moved into place without a
    /// write has them set then (`PartFile.prepareMove`), so that most spares, taken by items
    /// that fail too, cost no system call for it.
    func take(in directory: String) -> Int32? {
        spare.withLock { spare -> Int32? in
            guard let index = spare.lastIndex(where: { $0.directory == directory }) else { return nil }
            return spare.remove(at: index).descriptor
        }
    }

    /// Keeps an empty file with no name for the next download into `directory`, closing the
    /// oldest spare when there are enough: a list spread over many directories keeps no more
    /// open files than one.
    func keep(_ descriptor: Int32, in directory: String) {
        let evicted = spare.withLock { spare -> Int32? in
            spare.append((directory, descriptor))
            return spare.count > limit ? spare.removeFirst().descriptor : nil
        }
        if let evicted { close(evicted) }
    }
}
