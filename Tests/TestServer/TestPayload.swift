import Foundation

/// The deterministic bytes the test server serves: byte i of any payload is the same on every
/// run, so a test knows the expected file without a copy of it.
public enum TestPayload {
    /// Version 0 is the default file; other versions are "the same file, changed".
    public static func byte(at index: Int, version: Int = 0) -> UInt8 {
        UInt8(truncatingIfNeeded: index &* 31 &+ index >> 8 &+ 7 &+ version &* 101)
    }

    public static func bytes(_ range: Range<Int>, version: Int = 0) -> [UInt8] {
        range.map { byte(at: $0, version: version) }
    }

    public static func sha256(count: Int, version: Int = 0) -> String {
        sha256Hex(bytes(0..<count, version: version))
    }
}

public func sha256Hex<D: DataProtocol>(_ data: D) -> String {
    let digest = TestDigest.sha256()
    digest.update(data)
    return digest.hex()
}

public func sha256Hex(ofFile path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return sha256Hex(data)
}
