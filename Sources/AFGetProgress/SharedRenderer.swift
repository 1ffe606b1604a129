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

    public func finish() {
        renderer.withLock { $0.finish() }
    }
}
