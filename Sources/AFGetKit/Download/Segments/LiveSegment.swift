import Synchronization

/// A range of a file being downloaded, as the job that plans segments and the curl thread that
/// writes share it: the curl thread publishes how far it has taken the body, so the job knows
/// where each transfer is now rather than at its last progress report (four times a second: a
/// segment at 40 MB/s may be 10 MB past it). Writing stops at `end`, whatever the server sends.
public final class LiveSegment: Sendable, Equatable {
    /// Where writing stops (exclusive).
    public let end: Int64
    private let reachedOffset: Atomic<Int64>

    /// Bytes `position..<end` of the file, of which none are taken yet.
    public init(from position: Int64, end: Int64) {
        self.end = end
        reachedOffset = Atomic(position)
    }

    /// Where the next byte of the body goes: taken bytes, written or still buffered.
    public var reached: Int64 { reachedOffset.load(ordering: .acquiring) }

    public static func == (lhs: LiveSegment, rhs: LiveSegment) -> Bool { lhs === rhs }

    /// Called by the curl thread as it takes body bytes.
    func reach(_ offset: Int64) {
        reachedOffset.store(offset, ordering: .releasing)
    }
}
