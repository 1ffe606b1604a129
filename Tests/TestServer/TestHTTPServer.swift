import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A real HTTP/1.1 server on 127.0.0.1 with a random port, run in the test process.
/// Each route exercises one behaviour (see `Route`); every request is logged. With an identity
/// it speaks TLS, presenting that certificate, optionally requiring a client certificate
/// signed by the test CA.
public final class TestHTTPServer: Sendable {
    public let port: Int
    public let log = RequestLog()
    private let state = ServerState()
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel

    private let scheme: String

    public init(tls identity: TestCertificates.Identity? = nil, requiresClientCertificate: Bool = false) throws {
        let tls = try identity.map { try Self.tlsContext($0, requiresClientCertificate: requiresClientCertificate) }
        scheme = tls == nil ? "http" : "https"
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = self.log
        let state = self.state
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    }
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

    private static func tlsContext(_ identity: TestCertificates.Identity, requiresClientCertificate: Bool) throws
        -> NIOSSLContext
    {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(identity.certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: identity.privateKeyPath, format: .pem)))
        if requiresClientCertificate {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .file(TestCertificates.shared.caPath)
        }
        return try NIOSSLContext(configuration: configuration)
    }

    public var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    public func url(_ path: String, host: String = "127.0.0.1") -> String { "\(scheme)://\(host):\(port)\(path)" }

    /// The most responses this server was ever sending at the same time.
    public var mostConcurrentResponses: Int { state.mostConcurrentResponses }

    /// Changes how `/file/NAME` and `/flaky/NAME` behave from now on, as if query items were
    /// added to every request for NAME: `["v": "1"]` changes the file behind the same URL.
    public func change(_ name: String, _ query: [String: String]) {
        state.override(name, with: query)
    }
}
