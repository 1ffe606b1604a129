import AFGetSupport

/// Hashes of a file's consecutive pieces (a Metalink document's `<pieces>`): each piece of
/// `length` bytes (the last may be shorter) has its own, so a bad piece is known, and fetched
/// again, without the rest of the file.
public struct PieceHashes: Sendable, Equatable {
    public let length: Int64
    public let algorithm: DigestAlgorithm
    /// Lowercase hex, one per piece, in order.
    public let hashes: [String]

    public init(length: Int64, algorithm: DigestAlgorithm, hashes: [String]) {
        self.length = length
        self.algorithm = algorithm
        self.hashes = hashes.map { $0.lowercased() }
    }

    /// Whether these are the pieces of a file of `total` bytes: one hash per piece.
    public func fit(total: Int64) -> Bool {
        Int64(hashes.count) == (total == 0 ? 0 : (total - 1) / length + 1)
    }

    /// The bytes of piece `index` in a file of `total` bytes.
    public func range(of index: Int, total: Int64) -> Range<Int64> {
        let start = Int64(index) * length
        return start..<min(total, start + length)
    }

    /// The pieces that share a byte with `range`.
    func pieces(overlapping range: Range<Int64>) -> Range<Int> {
        guard !range.isEmpty else { return 0..<0 }
        let first = Int(range.lowerBound / length)
        let last = Int((range.upperBound - 1) / length)
        return min(first, hashes.count)..<min(last + 1, hashes.count)
    }
}
