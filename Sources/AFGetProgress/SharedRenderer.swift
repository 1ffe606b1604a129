import AFGetSupport
import Synchronization

/// A renderer several concurrent downloads report to: each event is drawn whole, one at a time.
/// Events the renderer has no use for (with `-q`, all but failures and notices) are dropped
/// before the lock: a batch of small files sends several per item from many threads, and
/// taking the lock for each cost more than the transfers (docs/performance.md).
public final class SharedRenderer: Sendable {
    private let renderer: PthreadMutex<any ProgressRenderer>
    private let wants: @Sendable (ItemEvent) -> Bool

    public init(_ renderer: sending any ProgressRenderer) {
        wants = renderer.interest
        self.renderer = PthreadMutex(renderer)
    }

    public func handle(_ event: ItemEvent) {
        guard wants(event) else { return }
        renderer.withLock { $0.handle(event) }
    }

    /// Writes output that shares the terminal with progress once `item`'s progress is
    /// finished (`ProgressRenderer.writeOutput`); errno when it fails.
    public func writeOutput(_ bytes: [UInt8], of item: ItemInfo, to output: OutputStream) -> Int32? {
        renderer.withLock { $0.writeOutput(bytes, of: item, to: output) }
    }

    /// What the renderer writes from now until `releaseWrites` goes out together: the driver
    /// holds it while it answers one pass's events.
    public func holdWrites() {
        renderer.withLock { $0.holdWrites() }
    }

    public func releaseWrites() {
        renderer.withLock { $0.releaseWrites() }
    }

    public func finish() {
        renderer.withLock { $0.finish() }
    }
}
