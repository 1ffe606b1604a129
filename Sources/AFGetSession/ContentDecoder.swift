import AFGetSupport
import CZlib

/// Decodes a body's content codings (`--compressed`) as it arrives: gzip (several members, as
/// gzip(1) reads them) and deflate (zlib-wrapped, or raw as some servers send it), stacked up
/// to the response limits. afget decodes instead of libcurl because libcurl 7.88 takes a
/// truncated stream or trailing data for a complete body, and decodes a whole receive buffer
/// (hundreds of MiB of a decompression bomb) before afget can stop it. Owned by the curl thread.
final class ContentDecoder {
    /// What `Accept-Encoding` offers when afget decodes.
    static let acceptedCodings = "gzip, deflate"

    /// Outermost coding last, as `Content-Encoding` lists them; each stage undoes one.
    private let stages: [Inflater]

    /// Nil when a coding is not one afget decodes; `unsupported` names it.
    init?(codings: [String]) {
        guard Self.unsupported(codings) == nil else { return nil }
        stages = codings.reversed().compactMap { Inflater.Format(coding: $0).map(Inflater.init) }
    }

    static func unsupported(_ codings: [String]) -> String? {
        codings.first { Inflater.Format(coding: $0) == nil }
    }

    /// Decodes `input`, handing each decoded piece to `deliver`, which returns false to stop.
    /// Returns why decoding failed, or nil (also when `deliver` stopped it).
    func decode(_ input: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) -> DecodingProblem? {
        if case .failed(let problem) = feed(input, stage: 0, deliver: deliver) { problem } else { nil }
    }

    /// How a stage's input went: decoded, stopped by the consumer, or refused.
    private enum Fed {
        case fed, stopped
        case failed(DecodingProblem)
    }

    private func feed(
        _ input: UnsafeRawBufferPointer, stage: Int,
        deliver: (UnsafeRawBufferPointer) -> Bool
    ) -> Fed {
        guard stage < stages.count else { return deliver(input) ? .fed : .stopped }
        var later = Fed.fed
        let failure = stages[stage].inflate(input) { piece in
            later = feed(piece, stage: stage + 1, deliver: deliver)
            if case .fed = later { return true } else { return false }
        }
        // The later stage's problem (or its stop) came first in the body: it is the answer
        // whatever the earlier stage found after it, as when the body comes in smaller pieces.
        switch later {
        case .failed: return later
        case .stopped: return .fed
        case .fed: return failure.map { .failed($0) } ?? .fed
        }
    }

    /// At the body's end: why the streams are incomplete, or nil.
    func finish() -> DecodingProblem? {
        stages.lazy.compactMap { $0.incompleteness }.first
    }
}

/// One zlib inflate stream with a fixed output buffer.
private final class Inflater {
    enum Format {
        case gzip, deflate

        init?(coding: String) {
            switch coding {
            case "gzip", "x-gzip": self = .gzip
            case "deflate": self = .deflate
            default: return nil
            }
        }
    }

    private let format: Format
    private var stream = z_stream()
    private var isInitialized = false
    /// The current stream (gzip member) reached its end; more input must start another member.
    private var atStreamEnd = false
    private var consumedAny = false
    private var membersCompleted = 0
    /// How many of gzip's magic bytes (1F 8B) the member after a complete one has shown: only
    /// they make it a member; anything else there is data after the stream. Checked here, byte by
    /// byte, so the verdict does not depend on where the network split the body (found by
    /// fuzzing: a broken second member was one or the other by the size of the pieces).
    private var magicSeen = 2
    private static let gzipMagic: [UInt8] = [0x1F, 0x8B]
    /// Deflate bodies are meant to be zlib-wrapped (RFC 9110 §8.4.1.2); some servers send raw ones.
    private var isRawDeflate = false
    /// A deflate body's first two bytes, held until both have come: they tell a zlib header from
    /// raw deflate. Deciding by zlib's refusal instead made the answer depend on how the network
    /// split the body (a first piece of one byte was taken for zlib, then refused).
    private var deflateHead: [UInt8] = []
    private static let capacity = 64 << 10
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Inflater.capacity)

    init(_ format: Format) {
        self.format = format
    }

    deinit {
        if isInitialized { inflateEnd(&stream) }
        buffer.deallocate()
    }

    private var name: String { format == .gzip ? "gzip" : "deflate" }
    private var cannotStart: DecodingProblem { .cannotStart(coding: name) }
    private var dataAfterEnd: DecodingProblem { .dataAfterEnd(coding: name) }

    private func start() -> Bool {
        if isInitialized { inflateEnd(&stream) }
        stream = z_stream()
        let windowBits: Int32 = format == .gzip ? 15 + 16 : (isRawDeflate ? -15 : 15)
        isInitialized = inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        return isInitialized
    }

    /// Inflates all of `input`, handing output to `deliver` a buffer at a time.
    func inflate(_ input: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) -> DecodingProblem? {
        guard input.count > 0 else { return nil }
        if format == .deflate && !isInitialized {
            let taken = min(2 - deflateHead.count, input.count)
            deflateHead += input.prefix(taken)
            guard deflateHead.count == 2 else { return nil }
            isRawDeflate = !Self.isZlibHeader(deflateHead[0], deflateHead[1])
            guard start() else { return cannotStart }
            // One call for the two bytes and the rest: a consumer that says stop is then obeyed.
            let joined = deflateHead + input[taken...]
            return joined.withUnsafeBytes { inflateStarted($0, deliver: deliver) }
        }
        if !isInitialized && !start() { return cannotStart }
        return inflateStarted(input, deliver: deliver)
    }

    /// What zlib checks of its two-byte header (RFC 1950 §2.2): method 8 (deflate), a window
    /// of at most 32 KiB, and the pair a multiple of 31.
    private static func isZlibHeader(_ first: UInt8, _ second: UInt8) -> Bool {
        first & 0x0F == 8 && first >> 4 <= 7 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
    }

    private func inflateStarted(
        _ input: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool
    ) -> DecodingProblem? {
        guard let base = input.baseAddress, input.count > 0 else { return nil }
        var next = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        var left = input.count
        var outputFull = false
        // A full output buffer may leave more output inside zlib, with or without input left.
        while left > 0 || outputFull {
            if atStreamEnd {
                guard left > 0 else { break }
                // Only gzip has several members; anything else after the end is not the body.
                guard format == .gzip, inflateReset(&stream) == Z_OK else { return dataAfterEnd }
                atStreamEnd = false
                magicSeen = 0
            }
            var offset = 0
            while magicSeen < Self.gzipMagic.count, offset < left {
                guard next[offset] == Self.gzipMagic[magicSeen] else { return dataAfterEnd }
                magicSeen += 1
                offset += 1
            }
            stream.next_in = next
            stream.avail_in = UInt32(min(left, Int(UInt32.max)))
            let offered = Int(stream.avail_in)
            stream.next_out = buffer
            stream.avail_out = UInt32(Self.capacity)
            let result = CZlib.inflate(&stream, Z_NO_FLUSH)
            let consumed = offered - Int(stream.avail_in)
            let produced = Self.capacity - Int(stream.avail_out)
            switch result {
            case Z_OK, Z_STREAM_END:
                break
            case Z_BUF_ERROR where consumed == 0 && produced == 0 && left == 0:
                return nil  // nothing more to give until more input arrives
            default:
                // What zlib decoded before the error goes out first: otherwise the output
                // would depend on where the network split the body (found by fuzzing).
                if produced > 0 { _ = deliver(UnsafeRawBufferPointer(start: buffer, count: produced)) }
                return .notValid(coding: name)
            }
            consumedAny = consumedAny || consumed > 0
            outputFull = produced == Self.capacity
            if produced > 0 {
                guard deliver(UnsafeRawBufferPointer(start: buffer, count: produced)) else { return nil }
            }
            next += consumed
            left -= consumed
            if result == Z_STREAM_END {
                atStreamEnd = true
                membersCompleted += 1
                outputFull = false
            }
        }
        return nil
    }

    /// Why the body ended before its stream did; nil when complete (or nothing came at all).
    var incompleteness: DecodingProblem? {
        (consumedAny || !deflateHead.isEmpty) && !atStreamEnd ? .truncated(coding: name) : nil
    }
}
