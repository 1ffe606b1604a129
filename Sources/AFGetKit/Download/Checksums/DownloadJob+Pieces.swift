import AFGetSupport

/// A file with piece hashes (Metalink): before its whole-file checksum, every piece not yet
/// checked — all of them after one connection, those an earlier run wrote, any a segment could
/// not check — is checked, one read each. A bad piece is fetched again, as a segment, from a
/// source that did not write it; a source that alone wrote it is dropped.
extension DownloadJob {
    /// Nil when every piece matches (or the file has no piece hashes); else the step that
    /// fetches the bad ones again, or, when one has no other source, the item's failure
    /// (exit 10, the data kept for a run with another source).
    func checkPieces(size: Int64) throws(TransferFailure) -> JobStep? {
        guard let hashes = download.pieces, let part = download.part else { return nil }
        guard hashes.fit(total: size) else {
            let unfit = DigestMismatch.piecesDoNotFit(count: hashes.hashes.count, length: hashes.length, size: size)
            return end(fail(checksumFailure(unfit, size: size)))
        }
        var check = pieces.flatMap { $0.total == size ? $0 : nil } ?? PieceCheck(hashes, total: size)
        var bad: [PieceCheck.Mismatch] = []
        for piece in check.unchecked {
            if cancellation.isRequested { throw TransferFailure(.stop(.bySignal)) }
            if let mismatch = try check.check(piece, digest: part.digest) { bad.append(mismatch) }
        }
        pieces = check
        guard !bad.isEmpty else { return nil }
        var avoiding: [Int64: Set<Int>] = [:]
        for mismatch in bad {
            guard let blame = sources.blame(mismatch, of: info) else {
                let found: SourceFinding? = sources.isMirrored ? .everyOtherSourceDropped : nil
                return end(fail(checksumFailure(mismatch.asDigestMismatch, size: size, found: found)))
            }
            if let said = blame.said { renderer.handle(said) }
            avoiding[mismatch.range.lowerBound] = blame.writers
            pieces?.forget(mismatch.range)
        }
        // The pieces are written again: the whole file is hashed again once they are in.
        for digest in digests { digest.reset() }
        return startSegments(
            FaultFinding.plan(refetching: bad.map(\.range), length: size), adopting: nil, avoiding: avoiding)
    }
}
