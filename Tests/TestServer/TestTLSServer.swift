import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The test server's routes over TLS, on 127.0.0.1 with a random port, presenting one of the
/// test identities; optionally requiring a client certificate signed by the test CA.
public final class TestTLSServer: Sendable {
    public let port: Int
    public let log = RequestLog()
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel

    public init(identity: TestCertificates.Identity, requiresClientCertificate: Bool = false) throws {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(identity.certificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)))
        if requiresClientCertificate {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .file(TestCertificates.shared.caPath)
        }
        let context = try NIOSSLContext(configuration: configuration)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = self.log
        let state = ServerState()
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
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

    public func url(_ path: String, host: String = "127.0.0.1") -> String { "https://\(host):\(port)\(path)" }
}
