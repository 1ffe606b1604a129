import Synchronization

/// A request as the test server received it.
public struct RecordedRequest: Sendable {
    public let method: String
    public let uri: String
    public let headers: [(name: String, value: String)]
    public let bodyCount: Int

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Every request a server received, in order; read from the test while the server writes.
public final class RequestLog: Sendable {
    private let entries = Mutex<[RecordedRequest]>([])

    func append(_ request: RecordedRequest) {
        entries.withLock { $0.append(request) }
    }

    public var all: [RecordedRequest] {
        entries.withLock { $0 }
    }
}
