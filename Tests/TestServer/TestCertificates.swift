import Crypto
import Foundation
import SwiftASN1
import X509

/// Certificates made for the tests, once per test process: a test CA, leaves it signed for
/// 127.0.0.1 and localhost (good, wrong name, expired), a self-signed leaf, and a client
/// certificate. Each is also written as PEM to a directory the tests pass to afget.
public final class TestCertificates: Sendable {
    public struct Identity: Sendable {
        public let certificatePEM: String
        public let privateKeyPEM: String
        /// `sha256//BASE64` of the SubjectPublicKeyInfo, as `--pin-pubkey` takes it.
        public let publicKeyPin: String
        /// Where the certificate and key were written.
        public let certificatePath: String
        public let privateKeyPath: String
    }

    public static let shared: TestCertificates = {
        do {
            return try TestCertificates()
        } catch {
            fatalError("cannot make test certificates: \(error)")
        }
    }()

    public let directory: String
    public let caPath: String
    public let good: Identity
    public let wrongName: Identity
    public let expired: Identity
    public let selfSigned: Identity
    /// Signed by the CA for 127.0.0.1 with a key of its own: another server, same trust.
    public let other: Identity
    public let client: Identity

    private init() throws {
        let directory = NSTemporaryDirectory() + "afget-certs-\(UUID().uuidString)"
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let now = Date()
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("afget test CA") }
        let ca = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86_400 * 30, issuer: caName, subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(caKey))
        caPath = directory + "/ca.pem"
        try ca.serializeAsPEM().pemString.write(toFile: directory + "/ca.pem", atomically: true, encoding: .utf8)

        func leaf(_ name: String, names: [GeneralName], from start: Date, to end: Date, usage: ExtendedKeyUsage.Usage = .serverAuth,
                  selfSigned: Bool = false) throws -> Identity {
            let key = P256.Signing.PrivateKey()
            let subject = try DistinguishedName { CommonName("afget test \(name)") }
            let certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                notValidBefore: start, notValidAfter: end, issuer: selfSigned ? subject : caName, subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([usage])
                    SubjectAlternativeNames(names)
                },
                issuerPrivateKey: .init(selfSigned ? key : caKey))
            let certificatePEM = try certificate.serializeAsPEM().pemString
            let pin = "sha256//" + Data(SHA256.hash(data: key.publicKey.derRepresentation)).base64EncodedString()
            let identity = Identity(certificatePEM: certificatePEM, privateKeyPEM: key.pemRepresentation, publicKeyPin: pin,
                                    certificatePath: "\(directory)/\(name).pem", privateKeyPath: "\(directory)/\(name)-key.pem")
            try certificatePEM.write(toFile: identity.certificatePath, atomically: true, encoding: .utf8)
            try key.pemRepresentation.write(toFile: identity.privateKeyPath, atomically: true, encoding: .utf8)
            return identity
        }
        let loopback: [GeneralName] = [.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))]
        good = try leaf("good", names: loopback, from: now - 3600, to: now + 86_400)
        other = try leaf("other", names: loopback, from: now - 3600, to: now + 86_400)
        wrongName = try leaf("wrong-name", names: [.dnsName("wrong.example")], from: now - 3600, to: now + 86_400)
        expired = try leaf("expired", names: loopback, from: now - 86_400 * 3, to: now - 86_400)
        selfSigned = try leaf("self-signed", names: loopback, from: now - 3600, to: now + 86_400, selfSigned: true)
        client = try leaf("client", names: [.dnsName("client.afget.test")], from: now - 3600, to: now + 86_400,
                          usage: .clientAuth)
    }
}
