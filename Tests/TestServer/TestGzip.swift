/// A gzip member (RFC 1952) holding bytes in stored (uncompressed) deflate blocks: a valid
/// gzip-coded body for the routes that send one, with no compression library in the server.
public enum TestGzip {
    public static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        var start = 0
        repeat {
            let end = min(start + 0xFFFF, bytes.count)
            let length = UInt16(end - start)
            output.append(end == bytes.count ? 1 : 0)  // BFINAL on the last block, BTYPE 00: stored
            output += littleEndian(UInt32(length), count: 2) + littleEndian(UInt32(~length), count: 2)
            output += bytes[start..<end]
            start = end
        } while start < bytes.count
        output += littleEndian(crc32(bytes), count: 4) + littleEndian(UInt32(truncatingIfNeeded: bytes.count), count: 4)
        return output
    }

    private static func littleEndian(_ value: UInt32, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// CRC-32 as gzip's trailer has it (reflected, polynomial 0xEDB88320).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
