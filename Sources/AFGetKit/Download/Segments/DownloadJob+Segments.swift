import AFGetRequest
import AFGetSupport

/// Segmented downloads (`-s`): the attempts that download a file in segments (whether it can
/// be split is the machine's: `DownloadMachine+Splitting`).
extension DownloadJob {
    /// Segments recorded by an earlier run, each no fuller than the part file shows.
    func segmentsToContinue() throws(TransferFailure) -> [Segment]? {
        guard let recorded = download.resumeData?.segments, !recorded.isEmpty, let part = download.part,
            validators.ifRange != nil, download.resumeData?.expectedLength != nil
        else { return nil }
        let size = try part.size()
        return recorded.map { segment in
            var clamped = segment
            clamped.done = max(0, min(segment.done, size - segment.start))
            return clamped
        }
    }

    /// Starts downloading `segments` over several connections, the first range's task
    /// (`first`) going on as one of them; `avoiding`: segments that fetch bad pieces again, with
    /// the sources that wrote them.
    func startSegments(_ segments: [Segment], adopting first: Handover?, avoiding: [Int64: Set<Int>] = [:]) -> JobStep {
        // Segments are planned only for a part of a known length; one connection otherwise.
        guard let part = download.part, let total = expectedTotal else { return attempt(from: offset) }
        if pieces == nil, let hashes = download.pieces, hashes.fit(total: total) { pieces = PieceCheck(hashes, total: total) }
        if !bodyReported {
            let held = segments.bytesDone
            renderer.handle(.started(info, total: total, offset: held > 0 ? held : nil))
            continuedFrom = held
            bodyReported = true
        }
        if settings.transfer.verbose {
            renderer.handle(
                .notice(DownloadNotices.segments(segments.filter { !$0.isComplete }.count, overUpTo: settings.split)))
        }
        startAttempt()
        let transfer = SegmentedTransfer(
            SegmentedTransfer.Context(
                environment: environment, info: info, request: download.request, part: part, validators: validators,
                total: total, tasks: tasks, sources: sources,
                checkpoint: { [unowned self] segments, ranges in self.checkpoint(segments: segments, ranges: ranges) },
                pieces: pieces),
            segments: segments, adopting: first, avoiding: avoiding)
        awaiting = .segments(transfer, heldAtStart: segments.bytesDone)
        return answer(transfer.begin())
    }

    /// The job's step for what its segments answered.
    func answer(_ step: SegmentedTransfer.Step) -> JobStep {
        guard case .segments(let transfer, let heldAtStart) = awaiting else { return .waiting }
        switch step {
        case .running(let posted, let waits):
            return .segments(posted: posted, waits: waits)
        case .ended(let result):
            sources = transfer.sources
            pieces = transfer.pieces
            if let ending = refetchEnded(result) {
                bytesThisRun += max(0, transfer.bytesDone - heldAtStart)
                return ending
            }
            // Whatever the ending: a stopped or failed split download's bytes arrived too.
            bytesThisRun += max(0, transfer.bytesDone - heldAtStart)
            return after(segmentsEnded(result, total: transfer.total))
        }
    }

    /// A segment's wait before its retry is over (or the run stopped during it).
    func segmentRetryDue(_ segment: Int64, stoppedBy reason: StopReason?) -> JobStep {
        guard case .segments(let transfer, _) = awaiting else { return .waiting }
        return answer(transfer.retryDue(segment, stoppedBy: reason))
    }

    /// What the segments' end means for the job.
    private func segmentsEnded(_ result: SegmentedTransfer.Result, total: Int64) -> AttemptResult {
        switch result {
        case .completed(let response):
            record.httpStatus = response.head.status
            return .completed(response, reached: total)
        case .fellBack(let contiguous, let reason):
            return .decided(machine.segmentsFellBack(at: contiguous, because: reason))
        case .failed(let failure) where failure.entityChanged:
            return .failed(failure, reached: offset)
        case .failed(let failure):
            // Segments already retried on their own: not retried again here (not transient).
            return .failed(failure.settled, reached: offset)
        case .stopped:
            return .stopped
        }
    }

    /// A segmented download's checkpoint: every segment's bytes, and the gapless prefix.
    func checkpoint(segments: [Segment], ranges: SourceRanges) -> TransferFailure? {
        checkpoint(SegmentPlan.contiguousPrefix(segments), segments: segments, ranges: ranges)
    }
}
