import AFGetProgress
import AFGetSupport

/// A checksum that failed on a file from several sources: the source at fault is found by
/// fetching what one source wrote (`SourceRanges`) again from the others, as segments restricted
/// to those ranges, and checking the whole file again (`FaultFinding`). The job answers with the
/// segments' step, as for any split download; `finish` comes back here with the new check.
extension DownloadJob {
    /// The finished file of `size` bytes failed its checksum (`mismatch`): the next suspect's
    /// bytes are fetched again from the other sources, or, with no source left to suspect (or
    /// one source only), the item fails with the data kept.
    func findFault(mismatch: DigestMismatch, size: Int64) -> JobStep {
        var finding = faults ?? FaultFinding(after: mismatch)
        // The previous suspect's bytes came from elsewhere and the file still fails: not its fault.
        _ = finding.checked(matches: false)
        sources.setAside = nil
        guard sources.isMirrored, download.part != nil, let total = expectedTotal, total == size,
            let suspect = finding.suspectNext(in: sources.ranges, usable: sources.usable)
        else {
            faults = finding
            let found = SourceFinding.noSourceMatches(suspected: finding.suspected.count)
            return end(fail(checksumFailure(finding.mismatch, size: size, found: found)))
        }
        faults = finding
        sources.setAside = sources.index(of: suspect)
        let ranges = sources.ranges.ranges(of: suspect)
        for range in ranges { pieces?.forget(range) }
        // Segments write unhashed: the file is hashed again, whole, once they end.
        for digest in digests { digest.reset() }
        renderer.handle(
            .notice(
                DownloadNotices.fetchingAgain(
                    info.path, bytes: ranges.reduce(0) { $0 + Int64($1.count) }, servedBy: suspect)))
        return startSegments(FaultFinding.plan(refetching: ranges, length: total), adopting: nil)
    }

    /// The file matched its checksum: a suspect whose bytes were fetched from elsewhere is the
    /// source at fault, dropped with a notice naming it.
    func convictSuspect() {
        guard var finding = faults else { return }
        sources.setAside = nil
        defer { faults = finding }
        guard let culprit = finding.checked(matches: true) else { return }
        let reason = "its bytes did not match the checksum"
        // A source of an earlier run, not given this time, is named too.
        if let index = sources.index(of: culprit), !sources.drop(index, because: reason) { return }
        // The file is whole: nothing goes on with the others, as the usual drop notice says.
        renderer.handle(.notice(DownloadNotices.culpritFound(info.path, culprit, because: reason)))
    }

    /// Segments fetching a suspect's bytes again ended without the file: the checksum's failure
    /// stands, saying why (the segments' checkpoint keeps what they hold); nil when no suspect's
    /// bytes were being fetched, or the run stopped, or the search goes on with one connection.
    ///
    /// A source whose server cannot send part of a file (python's http.server, nghttpd, SCP)
    /// makes the segments fall back to one connection. When the suspect wrote the whole file,
    /// that connection fetches it whole from the sources not set aside, and the check of the
    /// whole file still tells: a match convicts the suspect alone. When it wrote only part,
    /// the whole file again would replace other sources' bytes too, and convict no one.
    func refetchEnded(_ result: SegmentedTransfer.Result) -> JobStep? {
        guard let finding = faults, let suspect = finding.suspect else { return nil }
        let reason: String
        switch result {
        case .completed, .stopped: return nil
        case .failed(let failure): reason = failure.message
        case .fellBack(let contiguous, _) where contiguous == 0 && sources.ranges.bytes(of: suspect) == expectedTotal:
            return nil
        case .fellBack(_, let why): reason = why
        }
        sources.setAside = nil
        let found = SourceFinding.refetchFailed(suspect: suspect, because: reason)
        return end(fail(TransferFailure(.checksum(.mismatch(finding.mismatch, found: found, keptIn: download.part?.path)))))
    }
}
