import AFGetSupport

/// How a file of `size` bytes goes to S3: whole in one PUT below the threshold, else in parts of
/// `partSize` bytes (the last one shorter), numbered from 1. S3 takes at most 10 000 parts of
/// 5 MiB to 5 GiB each (the last may be smaller), so a part size that would need more parts
/// is grown, to whole MiB, until 10 000 hold the file.
public struct S3PartPlan: Sendable, Equatable {
    public static let smallestPart: Int64 = 5 << 20
    public static let largestPart: Int64 = 5 << 30
    public static let mostParts: Int64 = 10_000
    /// Below this a file is one PUT: one request, and its ETag is its MD5.
    public static let defaultThreshold: Int64 = 64 << 20
    /// Large enough that a part's request costs little beside its bytes, small enough that a
    /// part lost to Ctrl-C or a reset costs seconds to send again.
    public static let defaultPartSize: Int64 = 16 << 20

    public let size: Int64
    /// Bytes per part; 0 for a single PUT.
    public let partSize: Int64

    /// A part: its number (from 1) and where its bytes are in the file.
    public struct Part: Sendable, Equatable {
        public let number: Int
        public let offset: Int64
        public let length: Int64
    }

    /// `partSize` must be at least `smallestPart` (the command line checks it).
    public init(size: Int64, threshold: Int64 = defaultThreshold, partSize: Int64 = defaultPartSize)
        throws(TransferFailure)
    {
        let limit = Self.mostParts * Self.largestPart
        guard size <= limit else { throw TransferFailure(.input(.s3ObjectTooLarge(size: size, limit: limit))) }
        self.size = size
        guard size >= threshold, size > 0 else {
            self.partSize = 0
            return
        }
        let mebibyte: Int64 = 1 << 20
        let fewestBytes = (size + Self.mostParts - 1) / Self.mostParts
        let grown = (fewestBytes + mebibyte - 1) / mebibyte * mebibyte
        self.partSize = min(max(partSize, grown), Self.largestPart)
    }

    public var isMultipart: Bool { partSize > 0 }

    public var count: Int { isMultipart ? Int((size + partSize - 1) / partSize) : 1 }

    /// Part `number`, 1...count.
    public func part(_ number: Int) -> Part {
        guard isMultipart else { return Part(number: 1, offset: 0, length: size) }
        let offset = Int64(number - 1) * partSize
        return Part(number: number, offset: offset, length: min(partSize, size - offset))
    }

    public var parts: [Part] { (1...count).map(part) }
}
