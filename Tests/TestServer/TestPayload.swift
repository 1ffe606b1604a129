import Crypto
import Foundation

/// The deterministic bytes the test server serves: byte i of any payload is the same on every
/// run, so a test knows the expected file without a copy of it.
public enum TestPayload {
    public static func byte(at index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: index &* 31 &+ index >> 8 &+ 7)
    }

    public static func bytes(_ range: Range<Int>) -> [UInt8] {
        range.map(byte(at:))
    }

    public static func sha256(count: Int) -> String {
        sha256Hex(bytes(0..<count))
    }
}

public func sha256Hex<D: DataProtocol>(_ data: D) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}

public func sha256Hex(ofFile path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return sha256Hex(data)
}
