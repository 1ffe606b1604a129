import Foundation

/// The certificates the TLS tests use, committed as PEM files in `Certificates/` next to this
/// file (`Certificates/make-certificates.sh` makes them again): a test CA, leaves it signed for
/// 127.0.0.1 and localhost (good, wrong name, expired), a self-signed leaf, and a client
/// certificate. Tests pass the files' paths to afget.
public final class TestCertificates: Sendable {
    public struct Identity: Sendable {
        public let certificatePath: String
        public let privateKeyPath: String
        /// `sha256//BASE64` of the SubjectPublicKeyInfo, as `--pin-pubkey` takes it.
        public let publicKeyPin: String
    }

    public static let shared: TestCertificates = {
        do {
            return try TestCertificates()
        } catch {
            fatalError("cannot read the test certificates: \(error)")
        }
    }()

    public let caPath: String
    public let good: Identity
    public let wrongName: Identity
    public let expired: Identity
    public let selfSigned: Identity
    /// Signed by the CA for 127.0.0.1 with a key of its own: another server, same trust.
    public let other: Identity
    public let client: Identity

    private init() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Certificates").path
        func identity(_ name: String) throws -> Identity {
            let pin = try String(contentsOfFile: "\(directory)/\(name).pin", encoding: .utf8)
            return Identity(
                certificatePath: "\(directory)/\(name).pem", privateKeyPath: "\(directory)/\(name)-key.pem",
                publicKeyPin: pin.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        caPath = "\(directory)/ca.pem"
        good = try identity("good")
        other = try identity("other")
        wrongName = try identity("wrong-name")
        expired = try identity("expired")
        selfSigned = try identity("self-signed")
        client = try identity("client")
    }
}
