/// How TLS connections are checked (AFSecurityPolicy's role): system trust or a CA file or
/// directory, verification off (`--insecure`, never stored in resume data), public-key pins
/// and certificate pins (both enforced even with `--insecure`, on every redirect hop), and a
/// client certificate.
public struct TLSSettings: Sendable, Equatable {
    public var caFile: String?
    public var caDirectory: String?
    public var insecure: Bool
    /// `sha256//BASE64` SubjectPublicKeyInfo hashes; the server's key must match one.
    public var publicKeyPins: [String]
    /// Certificates the server's leaf must equal one of (DER).
    public var certificatePins: [[UInt8]]
    public var clientCertificate: String?
    public var clientKey: String?

    public init(
        caFile: String? = nil, caDirectory: String? = nil, insecure: Bool = false, publicKeyPins: [String] = [],
        certificatePins: [[UInt8]] = [], clientCertificate: String? = nil, clientKey: String? = nil
    ) {
        self.caFile = caFile
        self.caDirectory = caDirectory
        self.insecure = insecure
        self.publicKeyPins = publicKeyPins
        self.certificatePins = certificatePins
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
    }

    /// What libcurl checks during the handshake: the public-key pins, and the keys of the
    /// pinned certificates (the exact certificate is compared when the response arrives).
    var handshakePins: [String] {
        publicKeyPins + certificatePins.compactMap(CertificatePins.publicKeyPin(ofDER:))
    }
}
