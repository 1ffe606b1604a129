import AFGetSupport
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A forward proxy on 127.0.0.1, as a client configured with `-x` or `http_proxy` meets one:
/// an absolute-form request (`GET http://host:port/path HTTP/1.1`) is passed to its origin in
/// origin form, and `CONNECT host:port` opens a tunnel that carries bytes both ways (HTTPS).
/// It records the first line and the credentials of every request it is sent, and with
/// `credentials` it answers any request without them with 407 and a Basic challenge.
public final class ForwardProxy: Sendable {
    /// What the proxy was asked, in order: its request line and Proxy-Authorization, if any.
    public struct Visit: Sendable, Equatable {
        public let requestLine: String
        public let proxyAuthorization: String?
    }

    public var port: Int { listener.port }
    private let visits = VisitLog()
    private let listener: LoopbackListener

    /// `credentials`: "user:password" the proxy demands, or nil to let everyone through.
    public init(credentials: String? = nil) throws {
        let expected = credentials.map { "Basic " + Data($0.utf8).base64EncodedString() }
        let visits = self.visits
        listener = try LoopbackListener { channel in
            try channel.pipeline.syncOperations.addHandler(
                ClientSide(expectedAuthorization: expected) { visits.append($0) })
        }
    }

    public var url: String { "http://127.0.0.1:\(port)" }

    public var seen: [Visit] { visits.all }

    private final class VisitLog: Sendable {
        private let entries = PthreadMutex<[Visit]>([])

        func append(_ visit: Visit) { entries.withLock { $0.append(visit) } }

        var all: [Visit] { entries.withLock { $0 } }
    }

    /// One client connection: its request head is read whole, then bytes are relayed to the
    /// origin until either side closes.
    private final class ClientSide: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let expectedAuthorization: String?
        private let record: @Sendable (Visit) -> Void
        private var head: [UInt8] = []
        /// The origin's connection once it is open; bytes from the client go straight to it.
        private var origin: Channel?
        private var isConnecting = false
        /// Client bytes that arrive while the origin connection is being made.
        private var pending: [ByteBuffer] = []

        init(expectedAuthorization: String?, record: @escaping @Sendable (Visit) -> Void) {
            self.expectedAuthorization = expectedAuthorization
            self.record = record
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            if let origin {
                origin.writeAndFlush(buffer, promise: nil)
                return
            }
            if isConnecting {
                pending.append(buffer)
                return
            }
            head += buffer.readableBytesView
            guard let end = head.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let request = ProxyRequest(head: String(decoding: head[..<end.lowerBound], as: UTF8.self))
            let rest = head[end.upperBound...]
            guard let request else { return reply(context, "400 Bad Request") }
            record(Visit(requestLine: request.line, proxyAuthorization: request.proxyAuthorization))
            if let expectedAuthorization, request.proxyAuthorization != expectedAuthorization {
                return reply(context, "407 Proxy Authentication Required", extra: "Proxy-Authenticate: Basic realm=\"proxy\"\r\n")
            }
            isConnecting = true
            pending = [context.channel.allocator.buffer(bytes: request.forwardedHead + rest)]
            let client = context.channel
            ClientBootstrap(group: context.eventLoop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(OriginSide(client: client))
                    }
                }
                .connect(host: request.host, port: request.port)
                .assumeIsolated()
                .whenComplete { result in
                    switch result {
                    case .success(let origin):
                        if request.isTunnel {
                            self.write(context, "HTTP/1.1 200 Connection established\r\n\r\n")
                        }
                        self.origin = origin
                        for buffer in self.pending where buffer.readableBytes > 0 {
                            origin.writeAndFlush(buffer, promise: nil)
                        }
                        self.pending = []
                    case .failure:
                        self.reply(context, "502 Bad Gateway")
                    }
                }
        }

        func channelInactive(context: ChannelHandlerContext) {
            origin?.close(promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            context.close(promise: nil)
        }

        private func write(_ context: ChannelHandlerContext, _ text: String) {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text)), promise: nil)
        }

        /// A reply from the proxy itself, after which the connection is closed.
        private func reply(_ context: ChannelHandlerContext, _ status: String, extra: String = "") {
            let text = "HTTP/1.1 \(status)\r\n\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n"
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text)))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    /// The connection to the origin: what it sends goes back to the client; its close closes the client's.
    private final class OriginSide: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private let client: Channel

        init(client: Channel) {
            self.client = client
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            client.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            client.close(promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            context.close(promise: nil)
        }
    }
}

/// A request head as a forward proxy reads it: where to connect, and what to send there.
struct ProxyRequest {
    let line: String
    let host: String
    let port: Int
    let isTunnel: Bool
    let proxyAuthorization: String?
    /// For an absolute-form request, its head in origin form without the proxy's own fields
    /// (one request per connection, so the relay never has to find where the next one starts);
    /// nothing for a tunnel.
    let forwardedHead: [UInt8]

    init?(head: String) {
        let lines = head.components(separatedBy: "\r\n")
        let words = lines[0].split(separator: " ")
        guard words.count == 3 else { return nil }
        line = lines[0]
        var fields = lines.dropFirst().filter { !$0.isEmpty }
        proxyAuthorization = fields.first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { $0.dropFirst("proxy-authorization:".count).trimmingCharacters(in: .whitespaces) }
        if words[0] == "CONNECT" {
            guard let (host, port) = Self.hostAndPort(words[1]) else { return nil }
            (self.host, self.port, isTunnel, forwardedHead) = (host, port, true, [])
            return
        }
        guard words[1].hasPrefix("http://") else { return nil }
        let target = words[1].dropFirst("http://".count)
        let authority = target.prefix { $0 != "/" }
        guard let (host, port) = Self.hostAndPort(authority) else { return nil }
        let path = target.dropFirst(authority.count)
        (self.host, self.port, isTunnel) = (host, port, false)
        fields.removeAll {
            let name = $0.lowercased()
            return name.hasPrefix("proxy-") || name.hasPrefix("connection:")
        }
        let forwarded = ["\(words[0]) \(path.isEmpty ? "/" : path) \(words[2])"] + fields + ["Connection: close", "", ""]
        forwardedHead = Array(forwarded.joined(separator: "\r\n").utf8)
    }

    private static func hostAndPort(_ authority: Substring) -> (String, Int)? {
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
            return nil
        }
        return (String(authority[..<colon]), port)
    }
}
