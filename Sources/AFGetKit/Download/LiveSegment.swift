import Synchronization

/// A segment being downloaded, as the job that plans segments and the curl thread that writes
/// share it: the job may move the end earlier, to hand the rest to another connection; the
/// curl thread publishes how far it has taken the body, so the job splits where the
/// transfer is now. Progress reports come four times a second: a segment at 40 MB/s may be
/// 10 MB past its last report, and a split made from the report could hand out bytes already
/// taken.
public final class LiveSegment: Sendable, Equatable {
    private let endOffset: Atomic<Int64>
    private let reachedOffset: Atomic<Int64>

    /// Bytes `position..<end` of the file, of which none are taken yet.
    public init(from position: Int64, end: Int64) {
        endOffset = Atomic(end)
        reachedOffset = Atomic(position)
    }

    /// Where writing stops (exclusive).
    public var end: Int64 { endOffset.load(ordering: .acquiring) }

    /// Where the next byte of the body goes: taken bytes, written or still buffered.
    public var reached: Int64 { reachedOffset.load(ordering: .acquiring) }

    public static func == (lhs: LiveSegment, rhs: LiveSegment) -> Bool { lhs === rhs }

    /// Moves the end earlier; a later end than the current one is ignored.
    public func shorten(to newEnd: Int64) {
        var current = endOffset.load(ordering: .acquiring)
        while newEnd < current {
            let (exchanged, original) = endOffset.compareExchange(
                expected: current, desired: newEnd, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Called by the curl thread as it takes body bytes.
    func reach(_ offset: Int64) {
        reachedOffset.store(offset, ordering: .releasing)
    }
}
