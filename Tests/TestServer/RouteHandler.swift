import Foundation
import Glibc
import NIOCore
import NIOHTTP1

/// Answers one connection's requests according to `Route`.
final class RouteHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let log: RequestLog
    private let state: ServerState
    private var head: HTTPRequestHead?
    /// The start of the request body (what /echo shows); the whole is only counted and hashed,
    /// so a large upload does not sit in the test process's memory.
    private var body: [UInt8] = []
    private var bodyCount = 0
    private var bodyHash = TestDigest.sha256()
    /// This request is to be answered by a reset as soon as its body starts (`/flaky-upload`).
    private var resetsDuringBody = false
    /// This request's body is being read at a limited rate (`/slow-upload`), up to this many bytes.
    private var readsSlowly = false
    private var slowReadLimit = 0
    private static let keptBodyBytes = 1 << 20

    init(log: RequestLog, state: ServerState) {
        self.log = log
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = []
            bodyCount = 0
            bodyHash = TestDigest.sha256()
            answerBeforeBody(requestHead, context)
        case .body(let buffer):
            guard !resetsDuringBody else {
                resetsDuringBody = false
                if let head {
                    log.append(
                        RecordedRequest(
                            method: head.method.rawValue, uri: head.uri,
                            headers: head.headers.map { ($0.name, $0.value) }, bodyCount: 0))
                }
                head = nil
                resetConnection(context)
                return
            }
            let bytes = buffer.readableBytesView
            bodyCount += bytes.count
            state.countBodyBytes(bytes.count)
            bodyHash.update(bytes)
            if body.count < Self.keptBodyBytes { body.append(contentsOf: bytes.prefix(Self.keptBodyBytes - body.count)) }
        case .end:
            guard let head else { return }
            self.head = nil
            if readsSlowly {
                readsSlowly = false
                readFreely(context)
            }
            log.append(
                RecordedRequest(
                    method: head.method.rawValue, uri: head.uri,
                    headers: head.headers.map { ($0.name, $0.value) }, bodyCount: bodyCount))
            state.responseStarted()
            if resetsDuringBody {
                resetsDuringBody = false
                resetConnection(context)
                return
            }
            respond(to: head, context: context)
        }
    }

    /// What happens before a request body is read: `/reject` answers at once and closes (an
    /// early 413 or 401), `/flaky-upload` arms a reset, and `Expect: 100-continue` is honoured.
    private func answerBeforeBody(_ head: HTTPRequestHead, _ context: ChannelHandlerContext) {
        let target = RequestTarget(head.uri)
        let segments = target.path.split(separator: "/").map(String.init)
        switch segments.first ?? "" {
        case "reject":
            self.head = nil
            log.append(
                RecordedRequest(
                    method: head.method.rawValue, uri: head.uri,
                    headers: head.headers.map { ($0.name, $0.value) }, bodyCount: 0))
            state.responseStarted()
            let page = Array("rejected\n".utf8)
            sendHead(
                context, HTTPResponseStatus(statusCode: target.int("status", default: 413)),
                ["Content-Length": "\(page.count)", "Connection": "close"])
            sendBytes(context, page, then: .close)
            return
        case "flaky-upload":
            let name = segments.dropFirst().joined(separator: "/")
            resetsDuringBody = state.next("upload:" + name) <= target.int("fail", default: 1)
        case "slow-upload":
            readSlowly(
                context, bytesPerSecond: max(0, target.int("rate", default: 100_000)),
                for: target.query["slowfor"].flatMap { Int($0) } ?? Int.max)
        default:
            break
        }
        if head.headers.first(name: "Expect")?.lowercased() == "100-continue" {
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))),
                promise: nil)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let target = RequestTarget(head.uri)
        let segments = target.path.split(separator: "/").map(String.init)
        switch segments.first ?? "" {
        case "file":
            let name = segments.dropFirst().joined(separator: "/")
            let target = target.overridden(by: state.overrides(for: name))
            guard target.query["holdhead"] == "1" else {
                serveFile(head, target, context, failing: nil)
                return
            }
            // Not a byte of the response until the test says.
            awaitWord(on: name, context) { self.serveFile(head, target, context, failing: nil) }
        case "flaky":
            let name = segments.dropFirst().joined(separator: "/")
            let target = target.overridden(by: state.overrides(for: name))
            // With rangedonly=1 only ranged requests count (and fail): a segment, not the first request.
            let counted = target.query["rangedonly"] != "1" || head.headers.first(name: "Range") != nil
            let failing = counted && state.next(name) <= target.int("fail", default: 1) ? target.query["mode"] ?? "drop" : nil
            serveFile(head, target, context, failing: failing)
        case "status":
            let code = Int(segments.dropFirst().first ?? "") ?? 500
            let page = Array("error page \(code)\n".utf8)
            let status =
                target.query["reason"].map { HTTPResponseStatus.custom(code: UInt(code), reasonPhrase: $0) }
                ?? HTTPResponseStatus(statusCode: code)
            sendHead(context, status, ["Content-Length": "\(page.count)"])
            sendBytes(context, page, then: .end)
        case "redirect":
            let code = target.int("code", default: 302)
            sendHead(
                context, HTTPResponseStatus(statusCode: code),
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
            drip(
                context, from: 0, size: size, chunk: max(1, target.int("chunk", default: 10_000)),
                interval: .milliseconds(Int64(target.int("ms", default: 100))))
        case "silent":
            break
        case "headers":
            var headers: HTTPHeaders = ["Content-Length": "2"]
            let filler = String(repeating: "x", count: target.int("bytes", default: 10))
            for index in 0..<target.int("count", default: 10) {
                headers.add(name: "X-Filler-\(index)", value: filler)
            }
            // add=Name:value sends one header of the test's.
            if let added = target.query["add"], let colon = added.firstIndex(of: ":") {
                headers.add(name: String(added[..<colon]), value: String(added[added.index(after: colon)...]))
            }
            sendHead(context, .ok, headers)
            sendBytes(context, Array("ok".utf8), then: .end)
        case "upload", "flaky-upload", "slow-upload":
            let text = "\(bodyCount) \(bodyHash.hex())\n"
            sendHead(context, .created, ["Content-Length": "\(text.utf8.count)"])
            sendBytes(context, Array(text.utf8), then: .end)
        case "disposition":
            // /disposition/NAME?cd=VALUE: a small payload with `Content-Disposition: VALUE`.
            let size = target.int("size", default: 1000)
            var headers = payloadHeaders(size: size).adding("Content-Length", "\(size)")
            if let value = target.query["cd"] { headers.add(name: "Content-Disposition", value: value) }
            sendHead(context, .ok, headers)
            if let stallAfter = target.query["stall"].flatMap({ Int($0) }) {
                sendPayload(context, 0..<min(stallAfter, size), then: .nothing)
            } else {
                sendPayload(context, 0..<size, then: .end)
            }
        case "encoded":
            // /encoded?file=PATH&encoding=E: the bytes of a file the test wrote, as Content-Encoding E.
            let bytes = target.query["file"].flatMap { FileManager.default.contents(atPath: $0) }.map(Array.init) ?? []
            sendHead(
                context, .ok,
                [
                    "Content-Length": "\(bytes.count)", "Content-Encoding": target.query["encoding"] ?? "gzip",
                    "Content-Type": "application/octet-stream",
                ])
            sendBytes(context, bytes, then: .end)
        case "site":
            // /site/HOST/PATH: a web site for the documented examples. GET and HEAD get what the
            // test published at that path, else a 2 MB payload (large enough to be continued);
            // other methods are echoed.
            guard head.method == .GET || head.method == .HEAD else { fallthrough }
            if let bytes = state.published(at: target.path) {
                sendHead(context, .ok, ["Content-Length": "\(bytes.count)", "Content-Type": "application/octet-stream"])
                sendBytes(context, head.method == .HEAD ? [] : bytes, then: .end)
            } else {
                serveFile(head, target.overridden(by: ["size": "2000000"]), context, failing: nil)
            }
        case "echo":
            let echo = EchoDocument(head: head, body: body, bodyCount: bodyCount, bodySHA256: bodyHash.hex())
            sendHead(context, .ok, ["Content-Length": "\(echo.bytes.count)", "Content-Type": "application/json"])
            sendBytes(context, echo.bytes, then: .end)
        case "auth":
            let challenge = Authentication(head: head, target: target, scheme: segments.dropFirst().first ?? "basic")
            if challenge.isSatisfied {
                let page = Array("welcome \(challenge.user)\n".utf8)
                sendHead(context, .ok, ["Content-Length": "\(page.count)"])
                sendBytes(context, page, then: .end)
            } else {
                let page = Array("who are you?\n".utf8)
                sendHead(context, .unauthorized, ["Content-Length": "\(page.count)", "WWW-Authenticate": challenge.header])
                sendBytes(context, page, then: .end)
            }
        case "cookies":
            // /cookies/set?name=value sets cookies; /cookies shows the Cookie header received.
            var headers: HTTPHeaders = [:]
            if segments.dropFirst().first == "set" {
                for (name, value) in target.query.sorted(by: { $0.key < $1.key }) {
                    headers.add(name: "Set-Cookie", value: "\(name)=\(value); Path=/")
                }
            }
            let page = Array("cookie: \(head.headers.first(name: "Cookie") ?? "")\n".utf8)
            sendHead(context, .ok, headers.adding("Content-Length", "\(page.count)"))
            sendBytes(context, page, then: .end)
        default:
            let page = Array("no such route\n".utf8)
            sendHead(context, .notFound, ["Content-Length": "\(page.count)"])
            sendBytes(context, page, then: .end)
        }
    }

    // MARK: Files with ranges

    private func serveFile(
        _ head: HTTPRequestHead, _ target: RequestTarget, _ context: ChannelHandlerContext, failing mode: String?
    ) {
        let size = target.int("size", default: 1024)
        let version = target.int("v", default: 0)
        // `flip=K`: byte K of the file is sent inverted (a mirror that corrupts one piece).
        let flip = target.query["flip"].flatMap { Int($0) }
        // `etag8=1`: a strong ETag holding a non-ASCII character, as RFC 9110's obs-text allows.
        let tag = Route.etag(size: size, version: version, nonASCII: target.query["etag8"] == "1")
        let etag = target.query["weak"] == "1" ? "W/" + tag : tag
        var headers: HTTPHeaders = ["Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"]
        if target.query["noetag"] != "1" { headers.add(name: "ETag", value: etag) }
        // `lmversion=1`: a changed file also has a later Last-Modified, as on a real server.
        let lastModified = target.query["lmversion"] == "1" ? Route.lastModified(version: version) : Route.lastModified
        if target.query["nolm"] != "1" { headers.add(name: "Last-Modified", value: lastModified) }
        if let disposition = target.query["cd"] { headers.add(name: "Content-Disposition", value: disposition) }
        // `coded=C`: the body is announced as content-coded (its bytes are sent as they are).
        if let coding = target.query["coded"] { headers.add(name: "Content-Encoding", value: coding) }

        if let since = head.headers.first(name: "If-Modified-Since"), target.query["nolm"] != "1",
            let date = Route.httpDate.date(from: since), Int(date.timeIntervalSince1970) >= Route.lastModifiedEpoch
        {
            sendHead(context, .notModified, headers.adding("Content-Length", "0"))
            finish(context, .end)
            return
        }
        // `maxconn=K`: a server that serves K responses at once and answers more with 503
        // (nginx's limit_conn).
        if let most = target.query["maxconn"].flatMap({ Int($0) }), state.responsesNow > most {
            sendHead(context, .serviceUnavailable, ["Content-Length": "5"])
            sendBytes(context, Array("busy\n".utf8), then: .end)
            return
        }
        if mode == "slowdown" {
            // An S3 store asking for fewer requests: a 503 with its error document, no Retry-After.
            let document = Array(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
                    .utf8)
            sendHead(context, .serviceUnavailable, ["Content-Type": "application/xml", "Content-Length": "\(document.count)"])
            sendBytes(context, document, then: .end)
            return
        }
        if let mode, mode == "503" || mode == "429" {
            var failure: HTTPHeaders = ["Content-Length": "5"]
            if let after = target.query["retryafter"] { failure.add(name: "Retry-After", value: after) }
            if let reset = target.query["ratelimit"] { failure.add(name: "RateLimit", value: "\"default\";r=0;t=\(reset)") }
            sendHead(context, HTTPResponseStatus(statusCode: Int(mode)!), failure)
            sendBytes(context, Array("busy\n".utf8), then: .end)
            return
        }

        var start = 0
        // Where the body ends: the file's end, or a bounded range's (`bytes=A-B`).
        var end = size
        let ranges = target.query["ranges"] ?? "honour"
        if let range = head.headers.first(name: "Range"), ranges != "ignore",
            range.hasPrefix("bytes="), let first = Int(range.dropFirst(6).split(separator: "-").first ?? "")
        {
            let bounds = range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
            if bounds.count == 2, let last = Int(bounds[1]), last >= first { end = min(size, last + 1) }
            let ifRange = head.headers.first(name: "If-Range")
            let matches = ifRange == nil || ifRange == etag || ifRange == lastModified
            if matches || ranges == "always" {
                if first >= size {
                    // `total416=none`: no `Content-Range: */SIZE` (Apache, lighttpd).
                    let unsatisfied =
                        target.query["total416"] == "none" ? headers : headers.adding("Content-Range", "bytes */\(size)")
                    sendHead(context, .rangeNotSatisfiable, unsatisfied.adding("Content-Length", "0"))
                    finish(context, .end)
                    return
                }
                start = ranges == "wrong" ? first + 1 : first
                // `crange=VALUE`: the 206 says VALUE, whatever it holds.
                headers.add(name: "Content-Range", value: target.query["crange"] ?? "bytes \(start)-\(end - 1)/\(size)")
                if target.query["gzip206"] == "1" {
                    // A gzip-coded part of the file, chunked, where the request asked for identity (Caddy).
                    headers.add(name: "Content-Encoding", value: "gzip")
                    sendHead(context, .partialContent, headers)
                    sendBytes(context, TestGzip.stored(TestPayload.bytes(start..<end, version: version)), then: .end)
                    return
                }
            } else {
                end = size  // If-Range does not match: the whole file
            }
        }
        if target.query["crange200"] == "all" && !headers.contains(name: "Content-Range") {
            headers.add(name: "Content-Range", value: "bytes 0-\(size - 1)/\(size)")
        }
        if head.method == .HEAD {
            sendHead(context, .ok, headers.adding("Content-Length", "\(size)"))
            finish(context, .end)
            return
        }
        let length = end - start
        if target.query["nolength"] != "1" {
            headers.add(name: "Content-Length", value: "\(target.int("claim", default: length))")
        }
        if let second = target.query["length2"] {
            headers.add(name: "Content-Length", value: second)
        }
        // `crange200=1` or `all`: a part sent as a 200 that carries Content-Range.
        let partStatus: HTTPResponseStatus = target.query["crange200"] == nil ? .partialContent : .ok
        sendHead(context, start > 0 || headers.contains(name: "Content-Range") ? partStatus : .ok, headers)
        // A failing response is cut off after `after` bytes (default: half of it).
        let cut = start + min(length, target.int("after", default: length / 2))
        switch mode {
        case "drop":
            sendPayload(context, start..<cut, version: version, flip: flip, then: .close)
        case "reset":
            sendPayload(context, start..<cut, version: version, flip: flip, then: .reset)
        default:
            if let slowFrom = target.query["slowfrom"].flatMap({ Int($0) }) {
                // Fast up to byte slowFrom, then dripped: one segment finishes long before another.
                let fastEnd = max(start, min(slowFrom, end))
                sendPayload(context, start..<fastEnd, version: version, flip: flip, then: .nothing)
                drip(
                    context, from: fastEnd, size: end, chunk: target.int("chunk", default: 50_000),
                    interval: .milliseconds(Int64(target.int("ms", default: 50))), version: version, flip: flip)
                return
            }
            if let holdAfter = target.query["holdafter"].flatMap({ Int($0) }), start < holdAfter {
                // Up to byte holdAfter at once, then the rest (or a closed connection) when the test says.
                sendPayload(context, start..<min(holdAfter, end), version: version, flip: flip, then: .nothing)
                let name = target.path.split(separator: "/").dropFirst().joined(separator: "/")
                awaitWord(on: name, context) {
                    self.sendPayload(context, min(holdAfter, end)..<end, version: version, flip: flip, then: .end)
                }
                return
            }
            if let chunk = target.query["chunk"].flatMap({ Int($0) }) {
                // `fastfrom=N`: dripped up to byte N of the file, the rest at once.
                drip(
                    context, from: start, size: end, chunk: chunk,
                    interval: .milliseconds(Int64(target.int("ms", default: 100))), version: version, flip: flip,
                    fastFrom: target.query["fastfrom"].flatMap { Int($0) })
                return
            }
            let ending: Ending = target.query["claim"] == nil ? .end : .close
            // `short=K`: the last K bytes are left out and the body ends cleanly (chunked, with `nolength=1`).
            sendPayload(
                context, start..<max(start, end - target.int("short", default: 0)), version: version, flip: flip, then: ending)
        }
    }

    // MARK: Reading slowly

    /// How often a slow reader takes its next slice of the body.
    private static let slowReadInterval = TimeAmount.milliseconds(50)

    /// Reads the first `limit` bytes of this request's body at about `bytesPerSecond` (0: not
    /// at all), one slice a tick, then the rest as fast as it comes. A small socket receive
    /// buffer keeps the kernel from taking the body in on the server's behalf. Set up before
    /// `100 Continue` is sent, so before any of the body arrives.
    private func readSlowly(_ context: ChannelHandlerContext, bytesPerSecond: Int, for limit: Int) {
        guard let options = context.channel.syncOptions else { return }
        let slice = max(1, bytesPerSecond / 20)
        try? options.setOption(.autoRead, value: false)
        try? options.setOption(.maxMessagesPerRead, value: 1)
        try? options.setOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: slice))
        try? options.setOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(slice / 2))  // the kernel doubles it
        slowReadLimit = limit
        readsSlowly = true
        if bytesPerSecond > 0 { readNextSlice(context) }
    }

    private func readNextSlice(_ context: ChannelHandlerContext) {
        guard readsSlowly, context.channel.isActive else { return }
        guard bodyCount < slowReadLimit else {
            readsSlowly = false
            readFreely(context)
            return
        }
        context.read()
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.slowReadInterval) {
            self.readNextSlice(context)
        }
    }

    /// Back to reading as fast as the data comes.
    private func readFreely(_ context: ChannelHandlerContext) {
        guard let options = context.channel.syncOptions else { return }
        try? options.setOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator())
        try? options.setOption(.autoRead, value: true)
    }

    // MARK: Writing

    private enum Ending {
        case end, close, reset, nothing
    }

    private func payloadHeaders(size: Int) -> HTTPHeaders {
        ["ETag": Route.etag(size: size), "Last-Modified": Route.lastModified, "Content-Type": "application/octet-stream"]
    }

    private func sendHead(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ headers: HTTPHeaders) {
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    private func sendPayload(
        _ context: ChannelHandlerContext, _ range: Range<Int>, version: Int = 0, flip: Int? = nil, then ending: Ending
    ) {
        // Written in slices so a large payload never sits in memory twice.
        let slice = 256 * 1024
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + slice, range.upperBound)
            var buffer = context.channel.allocator.buffer(capacity: end - start)
            var bytes = TestPayload.bytes(start..<end, version: version)
            if let flip, (start..<end).contains(flip) { bytes[flip - start] ^= 0xFF }
            buffer.writeBytes(bytes)
            // Counted once written to the socket, as a server's access log counts bytes sent:
            // what a client cut off before it left is not counted.
            let written = context.eventLoop.makePromise(of: Void.self)
            let (state, count) = (state, end - start)
            written.futureResult.whenSuccess { state.countBytesSent(count) }
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: written)
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
        if ending != .nothing { state.responseEnded() }
        switch ending {
        case .end:
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .close:
            let flushed = context.eventLoop.makePromise(of: Void.self)
            context.flush()
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer()))), promise: flushed)
            flushed.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .reset:
            let flushed = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer()))), promise: flushed)
            flushed.futureResult.assumeIsolated().whenComplete { _ in self.resetConnection(context) }
        case .nothing:
            context.flush()
        }
    }

    /// A held response (`holdafter=`, `holdhead=1`) waits, looking every 10 ms, for the test's
    /// word on NAME: released, it goes on; dropped, its connection is closed.
    private func awaitWord(on name: String, _ context: ChannelHandlerContext, released: @escaping () -> Void) {
        guard context.channel.isActive else { return }
        switch state.heldResponse(name) {
        case .waiting:
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(10)) {
                self.awaitWord(on: name, context, released: released)
            }
        case .released:
            released()
        case .dropped:
            let state = state
            context.channel.closeFuture.whenComplete { _ in state.countHeldResponseDropped() }
            finish(context, .close)
        }
    }

    /// Closes with a TCP reset instead of a clean end (SO_LINGER 0).
    private func resetConnection(_ context: ChannelHandlerContext) {
        if let socket = context.channel as? SocketOptionProvider {
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }

    /// Sends bytes `start..<size` a chunk per interval; from byte `fastFrom` on, the rest at once.
    private func drip(
        _ context: ChannelHandlerContext, from start: Int, size: Int, chunk: Int, interval: TimeAmount,
        version: Int = 0, flip: Int? = nil, fastFrom: Int? = nil
    ) {
        guard context.channel.isActive else { return }
        let dripEnd = min(fastFrom ?? size, size)
        guard start < dripEnd else {
            sendPayload(context, start..<size, version: version, flip: flip, then: .end)
            return
        }
        let end = min(start + chunk, dripEnd)
        sendPayload(context, start..<end, version: version, flip: flip, then: end == size ? .end : .nothing)
        guard end < size else { return }
        context.eventLoop.assumeIsolated().scheduleTask(in: interval) {
            self.drip(
                context, from: end, size: size, chunk: chunk, interval: interval, version: version, flip: flip,
                fastFrom: fastFrom)
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
