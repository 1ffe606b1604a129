import AFGetSupport

/// Which pieces of a file (`PieceHashes`) have been checked, and which are due: a piece is
/// checked once every byte of it is in the part file, and again only when its bytes are written
/// again. A piece that failed is not checked again until it is rewritten. A value: the bytes
/// are read by its owner, through the closure it passes in.
struct PieceCheck {
    let hashes: PieceHashes
    /// The file's length.
    let total: Int64
    /// Pieces whose bytes matched their hash.
    private(set) var passed: Set<Int> = []
    /// Pieces whose bytes did not, and that have not been written again since.
    private(set) var failed: Set<Int> = []

    init(_ hashes: PieceHashes, total: Int64) {
        self.hashes = hashes
        self.total = total
    }

    /// A checked piece's verdict.
    struct Mismatch: Equatable {
        let piece: Int
        let range: Range<Int64>
        let algorithm: DigestAlgorithm
        let expected: String
        let actual: String

        /// As an item's failure says it.
        var asDigestMismatch: DigestMismatch {
            .piece(
                index: piece, first: range.lowerBound, last: range.upperBound - 1, algorithm: algorithm.rawValue,
                expected: expected, actual: actual)
        }
    }

    func range(of piece: Int) -> Range<Int64> { hashes.range(of: piece, total: total) }

    /// Pieces sharing a byte with `near`, neither checked nor failed, whose every byte lies in
    /// one of `held` (ranges of the part file that hold written bytes, in order, not overlapping).
    func due(held: [Range<Int64>], near: Range<Int64>) -> [Int] {
        hashes.pieces(overlapping: near).filter { piece in
            guard !passed.contains(piece), !failed.contains(piece) else { return false }
            let bytes = range(of: piece)
            return held.contains { $0.lowerBound <= bytes.lowerBound && bytes.upperBound <= $0.upperBound }
        }
    }

    /// Every piece not known to match: what a finished file still needs checked.
    var unchecked: [Int] {
        hashes.hashes.indices.filter { !passed.contains($0) }
    }

    /// Checks `piece` against its hash, `digest` reading its bytes; nil when it matches.
    mutating func check(
        _ piece: Int, digest: (Range<Int64>, DigestAlgorithm) throws(TransferFailure) -> String
    ) throws(TransferFailure) -> Mismatch? {
        let bytes = range(of: piece)
        let actual = try digest(bytes, hashes.algorithm)
        let expected = hashes.hashes[piece]
        guard actual != expected else {
            passed.insert(piece)
            failed.remove(piece)
            return nil
        }
        failed.insert(piece)
        return Mismatch(piece: piece, range: bytes, algorithm: hashes.algorithm, expected: expected, actual: actual)
    }

    /// `range` of the file is written again: the pieces it touches are checked again once whole.
    mutating func forget(_ range: Range<Int64>) {
        for piece in hashes.pieces(overlapping: range) {
            passed.remove(piece)
            failed.remove(piece)
        }
    }

    /// The part file was cut to `length` bytes.
    mutating func truncate(to length: Int64) {
        forget(length..<max(length, total))
    }
}
