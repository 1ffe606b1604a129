import AFGetSupport
import Synchronization

/// A request as the test server received it.
public struct RecordedRequest: Sendable {
    public let method: String
    public let uri: String
    public let headers: [(name: String, value: String)]
    public let bodyCount: Int
    /// When the server took the request (`monotonicSeconds()`; the tests share the clock).
    public let receivedAt = monotonicSeconds()

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Every request a server received, in order; read from the test while the server writes.
public final class RequestLog: Sendable {
    private let entries = PthreadMutex<[RecordedRequest]>([])

    func append(_ request: RecordedRequest) {
        entries.withLock { $0.append(request) }
    }

    public var all: [RecordedRequest] {
        entries.withLock { $0 }
    }
}

/// What routes remember between requests: per-name request counts (for routes that fail the
/// first few times) and per-name query overrides a test sets to change a file behind a URL.
/// What a response held by `holdafter=` does next, as the test says.
public enum HeldResponse: Sendable {
    case waiting
    /// The rest of the body is sent.
    case released
    /// The connection is closed, the body left short.
    case dropped
}

final class ServerState: Sendable {
    private let counts = PthreadMutex<[String: Int]>([:])
    private let overrides = PthreadMutex<[String: [String: String]]>([:])
    /// Responses being sent now, and the most there ever were at once.
    private let concurrency = PthreadMutex<(now: Int, most: Int)>((0, 0))
    private let bodyBytes = PthreadMutex<Int>(0)
    private let sentBytes = PthreadMutex<Int>(0)
    private let publishedFiles = PthreadMutex<[String: [UInt8]]>([:])
    private let connections = PthreadMutex<Int>(0)

    /// Counts connections accepted.
    func connectionAccepted() {
        connections.withLock { $0 += 1 }
    }

    var connectionsAccepted: Int {
        connections.withLock { $0 }
    }

    func publish(_ bytes: [UInt8], at path: String) {
        publishedFiles.withLock { $0[path] = bytes }
    }

    func published(at path: String) -> [UInt8]? {
        publishedFiles.withLock { $0[path] }
    }

    /// Counts payload bytes written to a socket.
    func countBytesSent(_ count: Int) {
        sentBytes.withLock { $0 += count }
    }

    var bytesSent: Int {
        sentBytes.withLock { $0 }
    }

    var responsesNow: Int {
        concurrency.withLock { $0.now }
    }

    /// Counts request body bytes as they are read, for tests that act partway through an upload.
    func countBodyBytes(_ count: Int) {
        bodyBytes.withLock { $0 += count }
    }

    var bodyBytesReceived: Int {
        bodyBytes.withLock { $0 }
    }

    func responseStarted() {
        concurrency.withLock { $0 = ($0.now + 1, max($0.most, $0.now + 1)) }
    }

    func responseEnded() {
        concurrency.withLock { $0.now -= 1 }
    }

    var mostConcurrentResponses: Int {
        concurrency.withLock { $0.most }
    }

    /// Counts one more request for `key` and returns the new count (1 for the first).
    func next(_ key: String) -> Int {
        counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }

    private let heldResponses = PthreadMutex<[String: HeldResponse]>([:])
    private let heldDrops = PthreadMutex<Int>(0)

    func heldResponse(_ name: String) -> HeldResponse {
        heldResponses.withLock { $0[name] ?? .waiting }
    }

    func decide(_ name: String, _ word: HeldResponse) {
        heldResponses.withLock { $0[name] = word }
    }

    func countHeldResponseDropped() {
        heldDrops.withLock { $0 += 1 }
    }

    var heldResponsesDropped: Int {
        heldDrops.withLock { $0 }
    }

    func override(_ name: String, with query: [String: String]) {
        overrides.withLock { $0[name, default: [:]].merge(query) { $1 } }
    }

    func overrides(for name: String) -> [String: String] {
        overrides.withLock { $0[name] ?? [:] }
    }
}
