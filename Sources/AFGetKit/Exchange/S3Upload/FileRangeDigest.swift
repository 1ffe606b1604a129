import AFGetSupport
import FoundationEssentials
import Glibc

/// The SHA-256 of `length` bytes of a file from `offset` (`x-amz-checksum-sha256` wants it in
/// base64). Read before the bytes are sent, since the header goes before the body (a trailer
/// would need aws-chunked framing); the second read is mostly the page cache's.
enum FileRangeDigest {
    static func sha256(of path: String, offset: Int64, length: Int64, cancellation: Cancellation)
        throws(TransferFailure) -> [UInt8]
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw fileFailure(.read, path, errno: errno) }
        defer { close(descriptor) }
        let digest = RunningDigest(.sha256)
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while done < length {
            // A part is read in a few milliseconds a MiB: Ctrl-C is looked at between them.
            if cancellation.isRequested { throw TransferFailure(.stop(.canceled)) }
            let count = pread(descriptor, buffer, Int(min(Int64(chunk), length - done)), off_t(offset + done))
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw fileFailure(.read, path, errno: errno) }
            guard count > 0 else { throw TransferFailure(.file(.shrank(path: path, sent: done, size: length))) }
            digest.update(buffer, count)
            done += Int64(count)
        }
        return digest.bytes()
    }
}

extension Array where Element == UInt8 {
    var base64: String { Data(self).base64EncodedString() }
    var hex: String { map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
}
