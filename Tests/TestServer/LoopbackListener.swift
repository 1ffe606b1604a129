import NIOCore
import NIOPosix

/// A listening socket on 127.0.0.1 at a free port, with its own event loop; each accepted
/// connection gets the pipeline `initialize` builds. Closed when released.
final class LoopbackListener: Sendable {
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel

    init(initialize: @escaping @Sendable (Channel) throws -> Void) throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try initialize(channel) }
            }
            .bind(host: "127.0.0.1", port: 0)
            .wait()
        port = channel.localAddress?.port ?? 0
    }

    deinit {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}
