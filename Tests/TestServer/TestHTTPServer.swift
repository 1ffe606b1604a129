import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL

/// A real HTTP/1.1 server on 127.0.0.1 with a random port, run in the test process.
/// Each route exercises one behaviour (see `Route`); every request is logged. With an identity
/// it speaks TLS, presenting that certificate, optionally requiring a client certificate
/// signed by the test CA. `http2Only` makes it speak HTTP/2 alone, as nghttpd does: ALPN
/// offers only `h2`, and a client that speaks HTTP/1.1 anyway is not understood.
public final class TestHTTPServer: Sendable {
    public var port: Int { listener.port }
    public let log = RequestLog()
    private let state = ServerState()
    private let listener: LoopbackListener

    private let scheme: String

    public init(
        tls identity: TestCertificates.Identity? = nil, requiresClientCertificate: Bool = false, http2Only: Bool = false
    ) throws {
        let tls = try identity.map {
            try Self.tlsContext($0, requiresClientCertificate: requiresClientCertificate, http2Only: http2Only)
        }
        scheme = tls == nil ? "http" : "https"
        let log = self.log
        let state = self.state
        listener = try LoopbackListener { channel in
            state.connectionAccepted()
            if let tls {
                try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
            }
            if http2Only {
                _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                    mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                ) { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandlers(
                            HTTP2FramePayloadToHTTP1ServerCodec(), RouteHandler(log: log, state: state))
                    }
                }
                return
            }
            // Unvalidated: some routes send hostile header values on purpose.
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withOutboundHeaderValidation: false)
            try channel.pipeline.syncOperations.addHandler(RouteHandler(log: log, state: state))
        }
    }

    private static func tlsContext(
        _ identity: TestCertificates.Identity, requiresClientCertificate: Bool, http2Only: Bool
    ) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(identity.certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: identity.privateKeyPath, format: .pem)))
        if http2Only { configuration.applicationProtocols = ["h2"] }
        if requiresClientCertificate {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .file(TestCertificates.shared.caPath)
        }
        return try NIOSSLContext(configuration: configuration)
    }

    public var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    public func url(_ path: String, host: String = "127.0.0.1") -> String { "\(scheme)://\(host):\(port)\(path)" }

    /// Connections accepted so far (an HTTP/2 connection carries many requests).
    public var connectionsAccepted: Int { state.connectionsAccepted }

    /// The most responses this server was ever sending at the same time.
    public var mostConcurrentResponses: Int { state.mostConcurrentResponses }

    /// Request body bytes read so far, over every request: how far an upload has got.
    public var bodyBytesReceived: Int { state.bodyBytesReceived }
    /// Payload bytes of files written to sockets, over every response so far (the wire total).
    public var payloadBytesSent: Int { state.bytesSent }

    /// What `/site` serves at `path` (`/site/example.org/data.tar`) instead of a payload.
    public func publish(_ bytes: [UInt8], at path: String) {
        state.publish(bytes, at: path)
    }

    /// What responses for `/file/NAME?holdafter=M` do once they have sent byte M (and those
    /// for `holdhead=1` before their headers): they wait until told `.released` (the rest is
    /// sent) or `.dropped` (their connections are closed).
    public func decide(_ name: String, _ word: HeldResponse) {
        state.decide(name, word)
    }

    /// Held responses whose connections have been closed by `.dropped`.
    public var heldResponsesDropped: Int { state.heldResponsesDropped }

    /// Changes how `/file/NAME` and `/flaky/NAME` behave from now on, as if query items were
    /// added to every request for NAME: `["v": "1"]` changes the file behind the same URL.
    public func change(_ name: String, _ query: [String: String]) {
        state.override(name, with: query)
    }
}
