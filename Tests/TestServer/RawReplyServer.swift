import NIOCore

/// A server on 127.0.0.1 that answers whatever it is sent with the same bytes, not HTTP at
/// all (no status line, say), and closes: for replies an HTTP server would never write.
public final class RawReplyServer: Sendable {
    public var port: Int { listener.port }
    private let listener: LoopbackListener

    public init(reply: [UInt8]) throws {
        listener = try LoopbackListener { channel in
            try channel.pipeline.syncOperations.addHandler(Replier(reply: reply))
        }
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    private final class Replier: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let reply: [UInt8]
        private var hasReplied = false

        init(reply: [UInt8]) {
            self.reply = reply
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !hasReplied else { return }
            hasReplied = true
            let buffer = context.channel.allocator.buffer(bytes: reply)
            context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
