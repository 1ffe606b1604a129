import Glibc

/// Searches of a string's UTF-8 bytes as loops over its storage. Swift's searches through
/// `String.UTF8View` are generic over every kind of string and cost some 25 instructions a
/// byte; URLs, list lines and paths are searched several times per item of a list
/// (docs/performance.md). A byte below 0x80 is never part of another character in UTF-8, so a
/// byte search finds exactly the ASCII character.
extension String {
    /// The string's UTF-8 bytes, contiguous (a native string's own storage).
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }

    package func containsByte(_ byte: UInt8) -> Bool {
        withUTF8Bytes { bytes in
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(start, Int32(byte), bytes.count) != nil
        }
    }

    /// The part after the last `byte`, or nil without one.
    package func suffix(afterLastByte byte: UInt8) -> Substring? {
        let offset = withUTF8Bytes { bytes in bytes.lastIndex(of: byte) }
        guard let offset else { return nil }
        return self[utf8.index(utf8.startIndex, offsetBy: offset + 1)...]
    }

    /// (before, after) the last `byte`, or nil without one.
    package func split(atLastByte byte: UInt8) -> (before: Substring, after: Substring)? {
        guard let after = suffix(afterLastByte: byte) else { return nil }
        return (self[..<utf8.index(before: after.startIndex)], after)
    }
}
