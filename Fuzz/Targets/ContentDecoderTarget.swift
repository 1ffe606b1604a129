@testable import AFGetSession
import CZlib

/// Compressed bodies (`--compressed`): afget's own loop around zlib, fed in the pieces the
/// network happens to deliver. Hostile bytes decode the same whatever the pieces, and what zlib
/// compressed decodes back to exactly what went in.
enum ContentDecoderTarget: FuzzTarget {
    static let name = "content-decoder"

    private static let stacks: [[String]] = [["gzip"], ["deflate"], ["x-gzip"], ["gzip", "gzip"], ["deflate", "gzip"]]

    static func fuzz(_ input: [UInt8]) {
        guard input.count >= 2 else { return }
        // The first byte chooses the codings and whether the rest is sent as it is or
        // compressed first; the second the size of the pieces.
        let codings = stacks[Int(input[0] & 0x7F) % stacks.count]
        let pieceSize = Int(input[1]) + 1
        let body = Array(input.dropFirst(2))
        if input[0] & 0x80 == 0 {
            let whole = decode(body, codings: codings, pieceSize: body.count + 1)
            let pieces = decode(body, codings: codings, pieceSize: pieceSize)
            expect(whole.output == pieces.output, "pieces of \(pieceSize) bytes decode to other bytes")
            expect(
                whole.problem == pieces.problem,
                "pieces of \(pieceSize) bytes: \(pieces.problem ?? "-") for \(whole.problem ?? "-")")
            if let problem = whole.problem {
                expect(["gzip", "deflate"].contains { problem.contains($0) }, "a problem not naming the coding: \(problem)")
            }
        } else {
            var encoded = body
            for coding in codings { encoded = compress(encoded, gzip: coding != "deflate") }
            let decoded = decode(encoded, codings: codings, pieceSize: pieceSize)
            expect(decoded.problem == nil, "compressed by zlib, refused: \(decoded.problem ?? "")")
            expect(decoded.output == body, "compressed by zlib, decoded to other bytes")
        }
        stopping(body, codings: codings)
    }

    /// Decodes `body` handed over `pieceSize` bytes at a time: the output, and the first
    /// problem (while decoding, or at the end).
    private static func decode(_ body: [UInt8], codings: [String], pieceSize: Int) -> (output: [UInt8], problem: String?) {
        guard let decoder = ContentDecoder(codings: codings) else {
            expect(false, "\(codings) not decoded")
            return ([], nil)
        }
        var output: [UInt8] = []
        var start = 0
        while start < body.count {
            let piece = body[start..<min(start + pieceSize, body.count)]
            start += pieceSize
            let problem = piece.withUnsafeBytes { bytes in
                decoder.decode(bytes) { decoded in
                    output.append(contentsOf: decoded)
                    return true
                }
            }
            if let problem { return (output, problem.words) }
        }
        return (output, decoder.finish()?.words)
    }

    /// A consumer that says stop is given nothing more.
    private static func stopping(_ body: [UInt8], codings: [String]) {
        guard let decoder = ContentDecoder(codings: codings) else { return }
        var calls = 0
        _ = body.withUnsafeBytes { bytes in
            decoder.decode(bytes) { _ in
                calls += 1
                return false
            }
        }
        expect(calls <= 1, "\(calls) pieces delivered after the consumer said stop")
    }

    /// zlib's own compression: gzip, or zlib-wrapped deflate.
    private static func compress(_ bytes: [UInt8], gzip: Bool) -> [UInt8] {
        var stream = z_stream()
        let windowBits: Int32 = gzip ? 15 + 16 : 15
        guard
            deflateInit2_(
                &stream, 6, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { fatalError("deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let result = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        expect(result == Z_STREAM_END, "zlib did not finish compressing")
        return Array(output.prefix(Int(stream.total_out)))
    }
}
