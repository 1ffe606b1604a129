import AFGetProgress
import AFGetSupport
import Glibc

/// Checkpoints: resume data written as a download goes, counting only bytes already on disk,
/// and the space a download claims up front.
extension DownloadJob {
    /// The first checkpoint, as the response is accepted, for all but small new files: a body of
    /// at most 1 MiB arrives in moments, and resume data counting none of it is worth no more
    /// than none, while creating and deleting it costs an inode per file (the largest cost of a
    /// batch of small files, docs/performance.md); the periodic and stop checkpoints still
    /// cover a small file that stalls. A new body of unknown length waits for the periodic one
    /// too: one that ends first never needs a name (DESIGN.md §4).
    func needsFirstCheckpoint(base: Int64) -> Bool {
        if download.part?.isAnonymous == true && expectedTotal == nil { return false }
        guard base == 0, let expectedTotal else { return true }
        return expectedTotal > Self.smallFileLimit || hasResumeData
    }

    static let smallFileLimit: Int64 = 1 << 20

    /// A new download (its file still has no name) whose whole body is known to be small: it
    /// stays nameless until it is complete (DESIGN.md §4), retries in this run included.
    var isSmallNewBody: Bool {
        guard download.part?.isAnonymous == true, let expectedTotal else { return false }
        return expectedTotal <= Self.smallFileLimit
    }

    /// Data first (fdatasync), then resume data counting only that data. Nothing is written
    /// when there is no validator to continue against: such a part file is started over anyway.
    /// A small new body has none (stopped, it starts over, which costs less) unless
    /// `keepingSmallBody`: a whole file kept for the next run (a checksum that did not match, a
    /// move that failed).
    /// `ranges`: who wrote what, when segments hold it (else the job's sources say).
    func checkpoint(
        _ bytes: Int64, segments: [Segment] = [], ranges: SourceRanges? = nil, keepingSmallBody: Bool = false
    ) -> TransferFailure? {
        guard let part = download.part, let store, validators.ifRange != nil else { return nil }
        lastCheckpointAt = monotonicSeconds()
        if part.isAnonymous && isSmallNewBody && !keepingSmallBody { return nil }
        do {
            try part.giveName()
            // Resume data counting no bytes needs no data behind it, nor to survive a crash.
            if bytes > 0 || !segments.isEmpty { try part.syncData() }
            let data = resumeData(bytes: bytes, segments: segments, ranges: ranges ?? sources.ranges, of: part)
            do {
                try store.save(data, durable: bytes > 0 || !segments.isEmpty)
            } catch  where Self.refusesNewFiles(error) && part.keep(data) {
                // The directory refuses DEST.afresume; the part file holds the resume data.
            }
            hasResumeData = true
            return nil
        } catch {
            return error
        }
    }

    /// A directory made read-only (or immutable) while the body arrived.
    private static func refusesNewFiles(_ failure: TransferFailure) -> Bool {
        [EACCES, EPERM, EROFS].contains(failure.systemErrorCode)
    }

    /// What a checkpoint records: `bytes` of `part` (or `segments`), what they are of, and, for
    /// a file from several sources, those sources and who wrote which of the bytes.
    func resumeData(bytes: Int64, segments: [Segment] = [], ranges: SourceRanges, of part: PartFile) -> ResumeData {
        let mirrored = sources.isMirrored
        // Ranges are recorded of a file of known length only.
        var written = mirrored && expectedTotal != nil ? ranges : SourceRanges()
        // What lies past the bytes counted is not known to be on disk.
        if segments.isEmpty { written.truncate(to: bytes) }
        return ResumeData(
            url: info.url, bytesReceived: bytes, validators: validators,
            tempFileName: splitPath(part.path).name, destination: part.destination, expectedLength: expectedTotal,
            segments: segments, headers: download.userHeaders, takesServerName: download.takesServerName,
            sources: mirrored ? sources.sources.map(\.url) : [], sourceRanges: written)
    }

    /// The stop checkpoint after a failure. On a full disk the new resume data has no room
    /// either: the part gives back its last bytes so the rest is counted, instead of the next
    /// run starting again from an older checkpoint (or from zero). The message then says how
    /// much is kept, and the attempt ends at the bytes the part file now holds.
    func stopped(by failure: TransferFailure, reached: Int64, bodyStarted: Bool) -> AttemptResult {
        guard bodyStarted, let part = download.part, let stopFailure = checkpoint(reached),
            stopFailure.isOutOfSpace, reached > Self.roomForResumeData
        else { return .failed(failure, reached: reached) }
        let kept = reached - Self.roomForResumeData
        do {
            try part.truncate(to: kept)
        } catch {
            return .failed(failure, reached: reached)
        }
        guard checkpoint(kept) == nil else { return .failed(failure, reached: kept) }
        return .failed(failure.noting(.keptUntilRoom(bytes: kept, path: part.path)), reached: kept)
    }

    /// What a full disk's part file gives back to make room for its resume data: a few blocks.
    private static let roomForResumeData: Int64 = 64 << 10

    /// Room for the rest of the body, claimed as it starts (see `PartFile.reserveSpace`).
    /// Not for small bodies: a system call each, for nothing, in a batch of them.
    func reserveSpace(from base: Int64) -> TransferFailure? {
        guard let part = download.part, let expectedTotal, expectedTotal - base > Self.smallFileLimit else { return nil }
        do {
            try part.reserveSpace(upTo: expectedTotal)
            return nil
        } catch {
            return error
        }
    }
}
