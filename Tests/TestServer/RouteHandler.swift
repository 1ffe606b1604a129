import NIOCore
import NIOHTTP1

/// Answers one connection's requests according to `Route`.
final class RouteHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let log: RequestLog
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(log: RequestLog) {
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = []
        case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return }
            log.append(RecordedRequest(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { ($0.name, $0.value) }, bodyCount: body.count))
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let target = RequestTarget(head.uri)
        let segments = target.path.split(separator: "/").map(String.init)
        switch segments.first ?? "" {
        case "file":
            let size = target.int("size", default: 1024)
            var headers = payloadHeaders(size: size)
            headers.add(name: "Content-Length", value: "\(size)")
            sendHead(context, .ok, headers)
            sendPayload(context, 0..<size, then: .end)
        case "status":
            let code = Int(segments.dropFirst().first ?? "") ?? 500
            let page = Array("error page \(code)\n".utf8)
            sendHead(context, HTTPResponseStatus(statusCode: code), ["Content-Length": "\(page.count)"])
            sendBytes(context, page, then: .end)
        case "redirect":
            let code = target.int("code", default: 302)
            sendHead(context, HTTPResponseStatus(statusCode: code),
                     ["Location": target.query["to"] ?? head.uri, "Content-Length": "9"])
            sendBytes(context, Array("redirect\n".utf8), then: .end)
        case "echo-headers":
            let text = head.headers.map { "\($0.name): \($0.value)\n" }.joined()
            sendHead(context, .ok, ["Content-Length": "\(text.utf8.count)"])
            sendBytes(context, Array(text.utf8), then: .end)
        case "drop":
            let size = target.int("size", default: 100_000)
            sendHead(context, .ok, payloadHeaders(size: size).adding("Content-Length", "\(size)"))
            sendPayload(context, 0..<target.int("after", default: size / 2), then: .close)
        case "stall":
            let size = target.int("size", default: 100_000)
            sendHead(context, .ok, payloadHeaders(size: size).adding("Content-Length", "\(size)"))
            sendPayload(context, 0..<target.int("after", default: size / 2), then: .nothing)
        case "drip":
            let size = target.int("size", default: 100_000)
            sendHead(context, .ok, payloadHeaders(size: size).adding("Content-Length", "\(size)"))
            drip(context, from: 0, size: size, chunk: max(1, target.int("chunk", default: 10_000)),
                 interval: .milliseconds(Int64(target.int("ms", default: 100))))
        case "silent":
            break
        case "headers":
            var headers: HTTPHeaders = ["Content-Length": "2"]
            let filler = String(repeating: "x", count: target.int("bytes", default: 10))
            for index in 0..<target.int("count", default: 10) {
                headers.add(name: "X-Filler-\(index)", value: filler)
            }
            sendHead(context, .ok, headers)
            sendBytes(context, Array("ok".utf8), then: .end)
        case "upload":
            let text = "\(body.count) \(sha256Hex(body))\n"
            sendHead(context, .created, ["Content-Length": "\(text.utf8.count)"])
            sendBytes(context, Array(text.utf8), then: .end)
        default:
            let page = Array("no such route\n".utf8)
            sendHead(context, .notFound, ["Content-Length": "\(page.count)"])
            sendBytes(context, page, then: .end)
        }
    }

    // MARK: Writing

    private enum Ending {
        case end, close, nothing
    }

    private func payloadHeaders(size: Int) -> HTTPHeaders {
        ["ETag": Route.etag(size: size), "Last-Modified": Route.lastModified, "Content-Type": "application/octet-stream"]
    }

    private func sendHead(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ headers: HTTPHeaders) {
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    private func sendPayload(_ context: ChannelHandlerContext, _ range: Range<Int>, then ending: Ending) {
        // Written in slices so a large payload never sits in memory twice.
        let slice = 256 * 1024
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + slice, range.upperBound)
            var buffer = context.channel.allocator.buffer(capacity: end - start)
            buffer.writeBytes(TestPayload.bytes(start..<end))
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            start = end
        }
        finish(context, ending)
    }

    private func sendBytes(_ context: ChannelHandlerContext, _ bytes: [UInt8], then ending: Ending) {
        var buffer = context.channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        finish(context, ending)
    }

    private func finish(_ context: ChannelHandlerContext, _ ending: Ending) {
        switch ending {
        case .end:
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .close:
            let flushed = context.eventLoop.makePromise(of: Void.self)
            context.flush()
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer()))), promise: flushed)
            flushed.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .nothing:
            context.flush()
        }
    }

    private func drip(_ context: ChannelHandlerContext, from start: Int, size: Int, chunk: Int, interval: TimeAmount) {
        guard context.channel.isActive else { return }
        let end = min(start + chunk, size)
        sendPayload(context, start..<end, then: end == size ? .end : .nothing)
        guard end < size else { return }
        context.eventLoop.assumeIsolated().scheduleTask(in: interval) {
            self.drip(context, from: end, size: size, chunk: chunk, interval: interval)
        }
    }
}

extension HTTPHeaders {
    func adding(_ name: String, _ value: String) -> HTTPHeaders {
        var copy = self
        copy.add(name: name, value: value)
        return copy
    }
}
