/// A checksum that did not match, or could not be checked.
public enum ChecksumFailure: Sendable, Equatable {
    /// The downloaded file's digest is not the expected one: what the mirrors' fault search
    /// found, and where the data is kept for a run with the right checksum.
    case mismatch(DigestMismatch, found: SourceFinding?, keptIn: String?)
    /// A file already at the destination that does not match; it is not touched.
    case existingDiffers(DigestMismatch)
    /// `--require-checksums`: the checksum file does not name this file.
    case notInSums(sumsFile: String)
    /// A bad piece that no other source could serve.
    case pieceUnservable(from: Int64)

    /// Exit 10, `--require-checksums`' file that no checksum names too.
    var failureClass: FailureClass { .checksumMismatch }

    /// One code for every case, as before they were told apart: a script checks the class.
    var code: String { "checksum-mismatch" }

    var words: String {
        switch self {
        case .mismatch(let mismatch, let found, let path):
            "checksum mismatch: \(mismatch.words)" + (found.map(\.words) ?? "")
                + (path.map { path in
                    found?.isRefetch == true
                        ? "; the data is kept in \(path) (run the same command again)"
                        : "; the data is kept in \(path) (run again with the right checksum, or --restart)"
                } ?? "")
        case .existingDiffers(let mismatch):
            "exists but does not match: \(mismatch.words); it is left as it is (--on-exists overwrite replaces it)"
        case .notInSums(let sums):
            "\(sums) does not name this file, so it cannot be checked (--require-checksums); not downloaded"
        case .pieceUnservable(let start):
            "a piece (bytes from \(start)) did not match its hash, and every source that did not serve it was dropped"
        }
    }
}

/// How a digest differs from what was expected.
public enum DigestMismatch: Sendable, Equatable {
    /// The whole file's: `origin` says where the expected one came from ("SHA256SUMS:3").
    case file(algorithm: String, expected: String, origin: String?, actual: String)
    /// One piece's (Metalink piece hashes).
    case piece(index: Int, first: Int64, last: Int64, algorithm: String, expected: String, actual: String)
    /// Piece hashes that cannot describe a file of this size.
    case piecesDoNotFit(count: Int, length: Int64, size: Int64)

    var words: String {
        switch self {
        case .file(let algorithm, let expected, let origin, let actual):
            "expected \(algorithm) \(expected)\(origin.map { " (\($0))" } ?? ""), got \(actual)"
        case .piece(let index, let first, let last, let algorithm, let expected, let actual):
            "piece \(index) (bytes \(first)-\(last)): expected \(algorithm) \(expected), got \(actual)"
        case .piecesDoNotFit(let count, let length, let size):
            "\(count) piece hashes of \(length) bytes cannot describe a file of \(size) bytes"
        }
    }
}

/// What the search for the source of bad bytes found, said after the mismatch.
public enum SourceFinding: Sendable, Equatable {
    case everyOtherSourceDropped
    /// The bytes of `suspected` sources were fetched again from the others, and still no match.
    case noSourceMatches(suspected: Int)
    /// Fetching a suspect's bytes again failed.
    case refetchFailed(suspect: String, because: String)

    var isRefetch: Bool {
        if case .refetchFailed = self { true } else { false }
    }

    var words: String {
        switch self {
        case .everyOtherSourceDropped: "; every other source was dropped"
        case .noSourceMatches(let suspected):
            suspected == 0
                ? ""
                : "; no source gave bytes that match (the bytes of "
                    + "\(suspected == 1 ? "the one source suspected" : "each of \(suspected) sources") were fetched again from the others)"
        case .refetchFailed(let suspect, let reason):
            "; fetching what \(suspect) served from the other sources failed (\(reason))"
        }
    }
}
