import AFGetSession
import AFGetSupport
import AFGetKit
import ArgumentParser

/// How TLS connections are verified (every subcommand).
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("cacert"), help: ArgumentHelp("Trust the CA certificates in this PEM file.", valueName: "file"),
        completion: .file())
    var caFile: String?

    @Option(
        name: .customLong("capath"),
        help: ArgumentHelp(
            "Trust the CA certificates in this directory (c_rehash).",
            valueName: "dir"), completion: .directory)
    var caDirectory: String?

    @Flag(name: [.customShort("k"), .long], help: "Do not verify the server's certificate (pins still apply).")
    var insecure = false

    @Option(
        name: .customLong("pin-pubkey"),
        help: ArgumentHelp(
            "The server's public key must match one of these SPKI hashes, even with --insecure.",
            valueName: "sha256//BASE64[;...]"))
    var pinPublicKey: String?

    @Option(
        name: .customLong("pin-cert"),
        help: ArgumentHelp(
            "The server's certificate must be one of those in this PEM or DER file, even with --insecure.", valueName: "file"),
        completion: .file())
    var pinCertificate: String?

    @Option(
        name: .customLong("cert"), help: ArgumentHelp("Client certificate (PEM) to present.", valueName: "file"),
        completion: .file())
    var clientCertificate: String?

    @Option(
        name: .customLong("key"), help: ArgumentHelp("Private key of the client certificate (PEM).", valueName: "file"),
        completion: .file())
    var clientKey: String?

    func validate() throws {
        if clientKey != nil && clientCertificate == nil { throw ValidationError("--key needs --cert") }
    }

    /// The settings, with pins read and checked; a bad pin or pin file is a usage error.
    func settings() throws(TransferFailure) -> TLSSettings {
        TLSSettings(
            caFile: caFile, caDirectory: caDirectory, insecure: insecure,
            publicKeyPins: try pinPublicKey.map { pins throws(TransferFailure) in try CertificatePins.parsePublicKeyPins(pins) }
                ?? [],
            certificatePins: try pinCertificate.map { path throws(TransferFailure) in try CertificatePins.loadCertificates(path) }
                ?? [],
            clientCertificate: clientCertificate, clientKey: clientKey)
    }
}
