import AFGetRequest
import AFGetSupport

/// Segmented downloads (`-s`): when a response shows a file can be split, and the attempts
/// that download it in segments.
extension DownloadJob {
    /// Why this response cannot be split (`-s`), or nil when it can: a file is written (not
    /// standard output, in order), the length is known, ranges work, a validator guards every
    /// segment, and the file is large enough. `askedRange`: the request asked for a range, so a
    /// 200 shows ranges do not work whatever Accept-Ranges says.
    func reasonNotToSplit(_ head: ResponseHead, base: Int64, askedRange: Bool) -> SplitRefusal? {
        // FTP and SFTP ranges come as 206 answers (RemoteFileAnswer); SCP has none.
        if download.request.url.scheme == "scp" { return SplitRefusal("SCP cannot fetch part of a file (sftp:// can)") }
        if askedRange && head.status == 200 { return SplitRefusal("the server ignores ranges (it sent the whole file)") }
        guard download.part != nil else { return SplitRefusal("standard output is written in order") }
        guard !download.isConditional else { return SplitRefusal("the request is conditional (--on-exists update)") }
        guard !splitRefused else { return SplitRefusal("the server answered a ranged request wrongly") }
        guard let total = expectedTotal else { return SplitRefusal("the length is unknown") }
        guard head.status == 206 || head.value(of: "Accept-Ranges")?.lowercased().contains("bytes") == true else {
            return SplitRefusal("the server does not accept ranges")
        }
        guard validators.ifRange != nil else { return SplitRefusal("no ETag or Last-Modified to check ranges against") }
        guard total - base > Self.smallestSplitFile(settings) else {
            return SplitRefusal("too small to split", isWorthSaying: false)
        }
        return nil
    }

    /// Why a download asked to split (`-s`) goes on one connection; said unless it is what a
    /// person expects (a small file).
    struct SplitRefusal {
        let text: String
        let isWorthSaying: Bool

        init(_ text: String, isWorthSaying: Bool = true) {
            self.text = text
            self.isWorthSaying = isWorthSaying
        }
    }

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
        guard let part = download.part, let total = expectedTotal else { return after(.fellBack) }
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
                total: total, route: route, sources: sources,
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
            splitRefused = true
            renderer.handle(.notice(DownloadNotices.oneConnectionFromHere(info.path, because: reason)))
            offset = contiguous
            return .fellBack
        case .failed(let failure) where failure.entityChanged:
            return .failed(failure, reached: offset)
        case .failed(let failure):
            // Segments already retried on their own: not retried again here (not transient).
            return .failed(TransferFailure(failure.kind, failure.message, reason: failure.reason), reached: offset)
        case .stopped:
            return .stopped
        }
    }

    /// A segmented download's checkpoint: every segment's bytes, and the gapless prefix.
    func checkpoint(segments: [Segment], ranges: SourceRanges) -> TransferFailure? {
        checkpoint(SegmentPlan.contiguousPrefix(segments), segments: segments, ranges: ranges)
    }
}
