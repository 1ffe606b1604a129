import AFGetSupport

/// An expected digest of a file: `sha-256=HEX`, `sha-512=HEX`, `sha-1=HEX` or `md5=HEX`
/// (aria2c's spelling; `sha256=` is accepted too).
public struct Checksum: Sendable, Equatable, CustomStringConvertible {
    public typealias Algorithm = DigestAlgorithm

    public let algorithm: Algorithm
    /// Lowercase hex.
    public let hex: String
    /// Where the expected digest was read when that is not the item's own line or option
    /// ("SHA256SUMS:2"), so a mismatch says which file to doubt. Not part of equality.
    public let origin: String?

    public init(algorithm: Algorithm, hex: String, origin: String? = nil) {
        self.algorithm = algorithm
        self.hex = hex.lowercased()
        self.origin = origin
    }

    public static func == (lhs: Checksum, rhs: Checksum) -> Bool {
        lhs.algorithm == rhs.algorithm && lhs.hex == rhs.hex
    }

    public static func parse(_ text: String) throws(TransferFailure) -> Checksum {
        guard let equals = text.firstIndex(of: "=") else {
            throw TransferFailure(.input(.checksumNotAlgorithmAndHex(text)))
        }
        let name = text[..<equals].lowercased()
        let hex = String(text[text.index(after: equals)...]).trimmingWhitespace()
        guard
            let algorithm = Algorithm.allCases.first(where: {
                $0.rawValue == name || $0.rawValue.replacing("-", with: "") == name
            })
        else {
            throw TransferFailure(.input(.checksumAlgorithmUnknown(name)))
        }
        // ASCII digits only: Character.isHexDigit also takes fullwidth ones ("Ａ"), which no
        // digest equals, so the download would fail only after the whole file came.
        let isHexDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20) }
        guard hex.utf8.count == algorithm.hexLength, hex.utf8.allSatisfy(isHexDigit) else {
            throw TransferFailure(.input(.checksumLength(algorithm: algorithm.rawValue, digits: algorithm.hexLength)))
        }
        return Checksum(algorithm: algorithm, hex: hex)
    }

    public var description: String { "\(algorithm.rawValue)=\(hex)" }

    /// "expected sha-256 HEX (SHA256SUMS:2), got HEX" when `digest` (of this checksum's
    /// algorithm) does not match; nil when it does.
    func mismatch(with digest: RunningDigest) -> DigestMismatch? {
        let actual = digest.hex()
        return actual == hex ? nil : .file(algorithm: algorithm.rawValue, expected: hex, origin: origin, actual: actual)
    }
}
