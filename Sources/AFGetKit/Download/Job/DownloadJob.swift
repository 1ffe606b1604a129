import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport

/// One item's download from start to finish: where to continue from, each attempt through the
/// task manager, checkpoints of resume data, retries that keep the bytes, and the move into place,
/// through the phases of `DownloadPhase`. Here the run from attempt to attempt; one attempt,
/// checkpoints, endings and segments each have their own file (`DownloadJob+Attempt`,
/// `+Checkpoints`, `+Endings`, `+Segments`).
final class DownloadJob {
    let download: PreparedDownload
    let environment: DownloadEnvironment
    let store: ResumeStore?
    var manager: TaskManager { environment.manager }
    var renderer: SharedRenderer { environment.renderer }
    var settings: DownloadSettings { environment.settings }
    var cancellation: Cancellation { environment.cancellation }

    /// What is known about the remote file: its validators and length.
    var validators: EntityValidators
    var expectedTotal: Int64?
    var lastCheckpointAt = 0.0
    /// Bytes received in this run, whatever became of them: what the summary counts.
    var bytesThisRun: Int64 = 0
    /// When the item's first request went out, after its wait for a place (`-j`): the done
    /// line's time and speed count from here.
    var firstRequestAt: Double?
    /// Bytes of the file that earlier runs received, as the body last started: the done line's
    /// speed counts only the rest.
    var continuedFrom: Int64 = 0
    /// Fed by the curl thread as bytes are written: the expected checksum's, and SHA-256 for
    /// reports and JSON progress.
    let checksumDigest: RunningDigest?
    let sha256Digest: RunningDigest?
    /// Each of the above once (a SHA-256 checksum is also the report's SHA-256).
    let digests: [RunningDigest]
    /// What the report says of the item, filled in as the job goes.
    var record: ItemRecord
    static let checkpointInterval = 1.0
    /// Where the download is in its life; the runner hears every change.
    var phases: DownloadPhaseMachine
    /// Failed attempts so far, and the wait before the next.
    var retries: RetryLoop
    /// Splitting (`-s`) is refused for the rest of the job once a server answered a range wrongly.
    var splitRefused = false
    /// The renderer was told the body started.
    var bodyReported = false
    /// A resume data file exists for this destination (found, or written by this job).
    var hasResumeData = false
    /// Why the body now arriving writes no resume data, said when it is interrupted.
    var whyNotContinuable = "the server sent no ETag or Last-Modified"

    init(_ download: PreparedDownload, environment: DownloadEnvironment, onPhaseChange: @escaping (DownloadPhase) -> Void) {
        self.download = download
        self.environment = environment.startingItem()
        phases = DownloadPhaseMachine(onChange: onPhaseChange)
        retries = self.environment.retryLoop()
        let settings = self.environment.settings
        store = download.part.map { ResumeStore(destination: $0.destination) }
        validators = download.resumeData?.validators ?? EntityValidators()
        hasResumeData = download.resumeData != nil
        expectedTotal = download.resumeData?.expectedLength
        checksumDigest = download.checksum.map { RunningDigest($0.algorithm) }
        if download.checksum?.algorithm == .sha256 {
            sha256Digest = checksumDigest
        } else {
            sha256Digest = settings.reportsSHA256 ? RunningDigest(.sha256) : nil
        }
        digests = [checksumDigest, sha256Digest === checksumDigest ? nil : sha256Digest].compactMap { $0 }
        record = ItemRecord(info: download.info)
    }

    /// The item as it is shown and reported: under the server's name once `-J` has it.
    var info: ItemInfo { record.info }

    /// Runs the item to its end, through its phases.
    func run() async -> ItemOutcome {
        let outcome = await runPhases()
        phases.move(to: .ended)
        record.outcome = outcome
        record.transferred = bytesThisRun
        return outcome
    }

    /// Seconds the item has taken since its first request went out (since `startedAt`, when
    /// none has yet).
    func secondsTaken(since startedAt: Double) -> Double {
        monotonicSeconds() - (firstRequestAt ?? startedAt)
    }

    /// A task's counters tell when its first request went out.
    func noteRequest(_ progress: TransferProgress) {
        if firstRequestAt == nil, progress.startedAt > 0 { firstRequestAt = progress.startedAt }
    }

    private func runPhases() async -> ItemOutcome {
        defer { download.closeStream() }
        let startedAt = monotonicSeconds()
        var offset: Int64
        do {
            offset = try startingOffset()
        } catch {
            return fail(error)
        }
        var segments = try? segmentsToContinue()
        var firstSegment: Handover?
        while true {
            let result: AttemptResult
            if let planned = segments, !planned.isEmpty {
                segments = nil
                result = await attemptSegmented(planned, adopting: firstSegment, fallbackOffset: &offset)
                firstSegment = nil
            } else {
                result = await attempt(from: offset)
            }
            switch result {
            case .split(let handover):
                // The first range goes on as a segment; the rest is split among the others.
                firstSegment = handover
                offset = handover.from
                segments = SegmentPlan.afterFirstRange(
                    handover.from..<handover.live.end, length: expectedTotal ?? handover.live.end,
                    connections: settings.split, minimumSize: settings.minimumSplitSize)
            case .rangeDone(let reached):
                offset = reached
            case .fellBack:
                continue
            case .serverNamedFileStays(let existing, let reason):
                return skipServerNamed(existing, reason: reason)
            case .stopped:
                return stopped()
            case .failed(let failure, let reached):
                offset = reached
                if failure.isClosedPipe && download.sink.isStream { return outputClosed() }
                if failure.kind == .resumeConflict {
                    guard let restarted = restart(because: failure.message) else { return fail(refusedRestart(failure.message)) }
                    offset = restarted
                    continue
                }
                let problem = RetryLoop.transientProblem(response: nil, failure: failure, sentCredentials: sendsCredentials)
                guard let problem else { return fail(retries.finalFailure(failure)) }
                if let refusal = streamCannotGoOn(failure, reached: offset) { return fail(refusal) }
                if let end = await retry(after: problem) { return end }
            case .completed(let response, let reached):
                offset = reached
                let head = response.head
                if head.status == 304 && download.isConditional {
                    return notModified()
                }
                if head.isSuccess {
                    guard let failure = lengthFailure(reached: offset) else {
                        return await finish(head, lastModified: response.lastModified, seconds: secondsTaken(since: startedAt))
                    }
                    let problem = RetryLoop.transientProblem(response: nil, failure: failure, sentCredentials: sendsCredentials)
                    guard let problem else { return fail(retries.finalFailure(failure)) }
                    if let refusal = streamCannotGoOn(failure, reached: offset) { return fail(refusal) }
                    if let end = await retry(after: problem) { return end }
                    continue
                }
                if head.status == 416 && offset == 0 && settings.split > 1,
                    head.value(of: "Content-Range").flatMap(ContentRange.init)?.total == 0
                {
                    // An empty file: nothing to split, and its first range is past its end.
                    return await finish(head, lastModified: nil, seconds: secondsTaken(since: startedAt))
                }
                if head.status == 416 && offset > 0 {
                    switch await continuation(after416: head, offset: offset, seconds: secondsTaken(since: startedAt)) {
                    case .from(let restarted): offset = restarted
                    case .ended(let outcome): return outcome
                    }
                    continue
                }
                let problem = RetryLoop.transientProblem(response: head, failure: nil, sentCredentials: sendsCredentials)
                let failure = head.failure(sentCredentials: sendsCredentials)
                guard let problem else { return fail(retries.finalFailure(failure)) }
                if let refusal = streamCannotGoOn(failure, reached: offset) { return fail(refusal) }
                if let end = await retry(after: problem) { return end }
            }
        }
    }

    private var sendsCredentials: Bool { settings.transfer.sendsCredentials }

    /// What a 416 to a continue means.
    private enum After416 {
        /// Go on from this offset (0: the part was started over).
        case from(Int64)
        case ended(ItemOutcome)
    }

    /// A 416 to a range from `offset`: the part may already hold the whole file (said by the
    /// 416's total, or confirmed by a HEAD request when it has none), or the file changed or
    /// shrank, and the download starts over or fails.
    private func continuation(after416 head: ResponseHead, offset: Int64, seconds: Double) async -> After416 {
        let total = head.value(of: "Content-Range").flatMap(ContentRange.init)?.total
        if total == offset {
            continuedFrom = offset
            return .ended(await finish(head, lastModified: nil, seconds: seconds))
        }
        if total == nil, offset == expectedTotal, await confirmWholePart(size: offset) {
            renderer.handle(
                .notice(
                    "afget: \(info.path): the part already holds the whole file "
                        + "(the server answered 416 without its length; a HEAD request confirmed it)"))
            continuedFrom = offset
            return .ended(await finish(head, lastModified: nil, seconds: seconds))
        }
        if let total, total < offset, let change = validators.change(in: head) {
            // Twisted's 416 for a file that shrank carries its new Last-Modified.
            guard let restarted = restart(because: change) else { return .ended(fail(refusedRestart(change))) }
            return .from(restarted)
        }
        if let total, total < offset {
            return .ended(
                fail(
                    TransferFailure(
                        .resumeConflict,
                        "the local part (\(offset) bytes) is larger than the remote file (\(total) bytes); use --restart to discard it"
                    )))
        }
        let reason = "the server cannot serve the rest (416)"
        guard let restarted = restart(because: reason) else { return .ended(fail(refusedRestart(reason))) }
        return .from(restarted)
    }

    /// Waits before the next attempt; the item's ending when there is none.
    private func retry(after problem: RetryLoop.Problem) async -> ItemOutcome? {
        phases.move(to: .waitingToRetry)
        switch await retries.next(after: problem, item: info) {
        case .retry: return nil
        case .exhausted(let failure), .waitTooLong(let failure): return fail(failure)
        case .stopped: return stopped()
        }
    }

    /// The phase of a new attempt, once its requests are posted.
    func startAttempt() {
        phases.startAttempt()
        record.attempts = phases.attempts
    }

    /// Whatever path the bytes took, the part must hold exactly the entity's length before it
    /// is moved into place (a stream, `reached` bytes): a body that ended early is continued,
    /// one that overran is worthless.
    private func lengthFailure(reached: Int64) -> TransferFailure? {
        guard let expectedTotal else { return nil }
        let size: Int64
        do {
            size = try download.part?.size() ?? reached
        } catch {
            return error
        }
        if size < expectedTotal {
            return TransferFailure(.network, "the body ended early: \(size) of \(expectedTotal) bytes", transient: true)
        }
        if size > expectedTotal {
            return TransferFailure(
                .protocolViolation,
                "the server sent more than the file's length (\(size) bytes of a \(expectedTotal)-byte file)", discardsData: true)
        }
        return nil
    }

    /// Why a stream (`-o -`) cannot take another attempt after `failure`, or nil. A file can
    /// always be continued or started over; a stream cannot take back what it was given, so
    /// it is tried again only before its first byte, or from where it is by a range that the
    /// server's validator ties to the same file.
    private func streamCannotGoOn(_ failure: TransferFailure, reached: Int64) -> TransferFailure? {
        guard download.part == nil, reached > 0, validators.ifRange == nil else { return nil }
        return TransferFailure(
            failure.kind,
            "\(failure.message); \(reached) bytes already went to \(download.sink.name), and the rest "
                + "cannot be asked for safely (\(whyNotContinuable)), so it is not tried again (that would write them twice)",
            systemErrorCode: failure.systemErrorCode)
    }

    // MARK: Where to continue

    /// min(checkpointed bytes, part size) when resume data allows a validated continue, else 0.
    private func startingOffset() throws(TransferFailure) -> Int64 {
        guard let part = download.part else { return 0 }
        let partSize = try part.size()
        guard let resumeData = download.resumeData else {
            if partSize > 0 && settings.refusesRestart {
                throw TransferFailure(
                    .resumeConflict, "\(part.path) has no resume data, so it cannot be continued (--no-restart)")
            }
            return 0
        }
        guard validators.ifRange != nil else {
            if settings.refusesRestart {
                throw TransferFailure(
                    .resumeConflict, "the server gave no ETag or Last-Modified to continue against (--no-restart)")
            }
            return 0
        }
        return min(resumeData.bytesReceived, partSize)
    }

    /// Starts over from zero unless `--no-restart`; nil when refused, or when the file changed
    /// under every restart so far (a server that keeps rewriting it, or contradicts itself).
    private func restart(because reason: String) -> Int64? {
        guard !settings.refusesRestart, let part = download.part, restartsSoFar < Self.mostRestarts else { return nil }
        restartsSoFar += 1
        renderer.handle(.restarting(info, reason: reason))
        validators = EntityValidators()
        expectedTotal = nil
        store?.remove()
        do {
            try part.truncate(to: 0)
        } catch {
            return nil
        }
        return 0
    }

    private var restartsSoFar = 0
    private static let mostRestarts = 3

    private func refusedRestart(_ reason: String) -> TransferFailure {
        if download.part == nil {
            return TransferFailure(
                .resumeConflict,
                "cannot continue \(download.sink.name): \(reason); what was written there is not written again")
        }
        if restartsSoFar >= Self.mostRestarts {
            return TransferFailure(.resumeConflict, "cannot continue: \(reason), after starting over \(restartsSoFar) times")
        }
        return TransferFailure(
            .resumeConflict,
            "cannot continue: \(reason); the part file and resume data are kept "
                + "(--no-restart): run the same command without --no-restart to start over")
    }
}
