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

    /// The rules of what follows an attempt, and what is known about the remote file.
    var machine: DownloadMachine
    /// The remote file's validators and length, as the machine keeps them.
    var validators: EntityValidators {
        get { machine.validators }
        set { machine.validators = newValue }
    }
    var expectedTotal: Int64? {
        get { machine.expectedTotal }
        set { machine.expectedTotal = newValue }
    }
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
    var whyNotContinuable: String {
        get { machine.whyNotContinuable }
        set { machine.whyNotContinuable = newValue }
    }

    init(_ download: PreparedDownload, environment: DownloadEnvironment, onPhaseChange: @escaping (DownloadPhase) -> Void) {
        self.download = download
        self.environment = environment.startingItem()
        phases = DownloadPhaseMachine(onChange: onPhaseChange)
        retries = self.environment.retryLoop()
        let settings = self.environment.settings
        store = download.part.map { ResumeStore(destination: $0.destination) }
        machine = DownloadMachine(
            rules: DownloadMachine.Rules(
                stream: download.part == nil ? download.sink.name : nil, isConditional: download.isConditional,
                splits: settings.split > 1, refusesRestart: settings.refusesRestart,
                sendsCredentials: settings.transfer.sendsCredentials),
            validators: download.resumeData?.validators ?? EntityValidators(),
            expectedTotal: download.resumeData?.expectedLength)
        hasResumeData = download.resumeData != nil
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
                if let end = await perform(machine.attemptFailed(failure, reached: reached), since: startedAt) {
                    return end
                }
                offset = machine.offset
            case .completed(let response, let reached):
                let size: Int64
                do {
                    size = try download.part?.size() ?? reached
                } catch {
                    return fail(error)
                }
                let action = machine.attemptCompleted(response.head, reached: reached, size: size)
                if let end = await perform(action, after: response, since: startedAt) { return end }
                offset = machine.offset
            }
        }
    }

    /// Does what the machine said, and what it says then, until the next attempt is due; the
    /// item's ending when there is none. `response`: the attempt's, when it completed.
    private func perform(_ action: DownloadMachine.Action, after response: TaskResponse? = nil, since startedAt: Double)
        async -> ItemOutcome?
    {
        var action = action
        while true {
            switch action {
            case .attempt:
                return nil
            case .retry(let failure, let retryAfter):
                return await retry(after: RetryLoop.Problem(failure: failure, retryAfter: retryAfter))
            case .startOver(let reason):
                guard startOver(because: reason) else { return fail(machine.cannotStartOver(because: reason)) }
                return nil
            case .confirmWholePart(let size):
                action = machine.wholePart(confirmed: await confirmWholePart(size: size))
            case .finish(let wholePart, let confirmedByHead):
                if confirmedByHead {
                    renderer.handle(
                        .notice(
                            "afget: \(info.path): the part already holds the whole file "
                                + "(the server answered 416 without its length; a HEAD request confirmed it)"))
                }
                if wholePart { continuedFrom = machine.offset }
                let head = response?.head ?? ResponseHead()
                let lastModified = head.isSuccess ? response?.lastModified : nil
                return await finish(head, lastModified: lastModified, seconds: secondsTaken(since: startedAt))
            case .keepAsNotModified:
                return notModified()
            case .fail(let failure, let afterRetries):
                return fail(afterRetries ? retries.finalFailure(failure) : failure)
            case .outputClosed:
                return outputClosed()
            }
        }
    }

    private var sendsCredentials: Bool { settings.transfer.sendsCredentials }

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

    /// Discards the part for a new start from zero (the machine allowed it), saying why;
    /// false when the part cannot be truncated.
    private func startOver(because reason: String) -> Bool {
        guard let part = download.part else { return false }
        renderer.handle(.restarting(info, reason: reason))
        store?.remove()
        machine.startedOver()
        do {
            try part.truncate(to: 0)
        } catch {
            return false
        }
        return true
    }
}
