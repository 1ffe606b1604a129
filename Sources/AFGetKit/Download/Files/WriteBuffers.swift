import AFGetSupport

/// Write buffers that finished transfers give back, for the next ones to take. A buffer of
/// 128 KiB or more is a mapping of its own in malloc (its threshold), so a batch of 1 MiB
/// objects otherwise mapped, faulted in page by page and unmapped a fresh MiB per file: an
/// eighth of afget's CPU on a prefix of 1 MiB objects (docs/performance.md). Smaller buffers come
/// from malloc's heap, which reuses them itself.
final class WriteBuffers: Sendable {
    /// Buffers of this size or more are kept; smaller ones are malloc's.
    static let keptFrom = 128 << 10

    /// Free buffers by size, as addresses: a buffer given back is no thread's until taken again.
    private let free = PthreadMutex<[Int: [Int]]>([:])
    /// Buffers kept of each size: about as many as transfers run at once.
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    deinit {
        free.withLock { free in
            for address in free.values.joined() { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
        }
    }

    /// A buffer of `size` bytes, page-aligned: a kept one when there is one.
    func take(size: Int) -> UnsafeMutableRawPointer {
        let kept = size < Self.keptFrom ? nil : free.withLock { $0[size]?.popLast() }
        if let kept, let buffer = UnsafeMutableRawPointer(bitPattern: kept) { return buffer }
        return UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
    }

    /// Takes back a buffer of `size` bytes from `take`, freeing it when enough are kept.
    func giveBack(_ buffer: UnsafeMutableRawPointer, size: Int) {
        let isKept = free.withLock { free in
            guard size >= Self.keptFrom, free[size, default: []].count < limit else { return false }
            free[size, default: []].append(Int(bitPattern: buffer))
            return true
        }
        if !isKept { buffer.deallocate() }
    }

    /// How many buffers of `size` are kept now.
    func keptCount(size: Int) -> Int {
        free.withLock { $0[size]?.count ?? 0 }
    }
}
