import AFGetSupport
import COpenSSL
import FoundationEssentials
import Glibc

/// Reads `--pin-pubkey` and `--pin-cert` arguments into pins.
public enum CertificatePins {
    /// `sha256//BASE64[;sha256//BASE64...]`, each hash 32 bytes.
    public static func parsePublicKeyPins(_ argument: String) throws(TransferFailure) -> [String] {
        let pins = argument.split(separator: ";").map { $0.trimmingWhitespace() }
        guard !pins.isEmpty else { throw TransferFailure(.input(.publicKeyPinsEmpty)) }
        for pin in pins {
            guard pin.hasPrefix("sha256//"), let hash = Data(base64Encoded: String(pin.dropFirst(8))), hash.count == 32 else {
                throw TransferFailure(.input(.publicKeyPinMalformed(pin)))
            }
        }
        return pins
    }

    /// The certificates in a PEM file (one or more) or a DER file, as DER.
    public static func loadCertificates(_ path: String) throws(TransferFailure) -> [[UInt8]] {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw fileFailure(.read, path, errno: errno)
        }
        var certificates: [[UInt8]] = []
        let text = String(decoding: contents, as: UTF8.self)
        if text.contains("-----BEGIN CERTIFICATE-----") {
            for block in text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst() {
                let body = block.components(separatedBy: "-----END CERTIFICATE-----")[0]
                guard let der = Data(base64Encoded: body, options: .ignoreUnknownCharacters) else {
                    throw TransferFailure(.input(.certificateNotBase64(path: path)))
                }
                certificates.append(Array(der))
            }
        } else {
            certificates = [Array(contents)]
        }
        for certificate in certificates where publicKeyPin(ofDER: certificate) == nil {
            throw TransferFailure(.input(.notCertificates(path: path)))
        }
        return certificates
    }

    /// The leaf certificate's DER from the PEM libcurl reports.
    static func der(fromPEM pem: String) -> [UInt8]? {
        let body = pem.replacing("-----BEGIN CERTIFICATE-----", with: "").replacing("-----END CERTIFICATE-----", with: "")
        return Data(base64Encoded: body, options: .ignoreUnknownCharacters).map(Array.init)
    }

    /// `sha256//BASE64` of a certificate's SubjectPublicKeyInfo; nil when it is not a certificate.
    static func publicKeyPin(ofDER der: [UInt8]) -> String? {
        der.withUnsafeBufferPointer { buffer -> String? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            defer { X509_free(certificate) }
            guard let key = X509_get_X509_PUBKEY(certificate) else { return nil }
            let length = i2d_X509_PUBKEY(key, nil)
            guard length > 0 else { return nil }
            var spki = [UInt8](repeating: 0, count: Int(length))
            spki.withUnsafeMutableBufferPointer { output in
                var out: UnsafeMutablePointer<UInt8>? = output.baseAddress
                _ = i2d_X509_PUBKEY(key, &out)
            }
            let digest = RunningDigest(.sha256)
            spki.withUnsafeBytes { digest.update($0.baseAddress!, $0.count) }
            return "sha256//" + Data(digest.bytes()).base64EncodedString()
        }
    }
}
