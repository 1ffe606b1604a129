import AFGetSupport
import Synchronization

/// A renderer several concurrent downloads report to: each event is drawn whole, one at a time.
public final class SharedRenderer: Sendable {
    private let renderer: Mutex<any ProgressRenderer>

    public init(_ renderer: sending any ProgressRenderer) {
        self.renderer = Mutex(renderer)
    }

    public func handle(_ event: ItemEvent) {
        renderer.withLock { $0.handle(event) }
    }

    /// Writes output that shares the terminal with progress once `item`'s progress is
    /// finished (`ProgressRenderer.writeOutput`); errno when it fails.
    public func writeOutput(_ bytes: [UInt8], of item: ItemInfo, to output: OutputStream) -> Int32? {
        renderer.withLock { $0.writeOutput(bytes, of: item, to: output) }
    }

    public func finish() {
        renderer.withLock { $0.finish() }
    }
}
