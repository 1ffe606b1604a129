import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on 127.0.0.1 with a random port, run in the test process.
/// Each route exercises one behaviour (see `Route`); every request is logged.
public final class TestHTTPServer: Sendable {
    public let port: Int
    public let log = RequestLog()
    private let state = ServerState()
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel

    public init() throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = self.log
        let state = self.state
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Unvalidated: some routes send hostile header values on purpose.
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withOutboundHeaderValidation: false)
                    try channel.pipeline.syncOperations.addHandler(RouteHandler(log: log, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .wait()
        port = channel.localAddress?.port ?? 0
    }

    deinit {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public func url(_ path: String) -> String { baseURL + path }

    /// The most responses this server was ever sending at the same time.
    public var mostConcurrentResponses: Int { state.mostConcurrentResponses }

    /// Changes how `/file/NAME` and `/flaky/NAME` behave from now on, as if query items were
    /// added to every request for NAME: `["v": "1"]` changes the file behind the same URL.
    public func change(_ name: String, _ query: [String: String]) {
        state.override(name, with: query)
    }
}
