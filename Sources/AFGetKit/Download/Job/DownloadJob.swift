import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import Glibc

/// One item's download from start to finish: where to continue from, each attempt through the
/// task manager, checkpoints of resume data, retries that keep the bytes, and the move into place,
/// through the phases of `DownloadPhase`. A job runs no task of its own: a driver
/// (`DownloadDriver`) hands it its tasks' events and the ends of its waits, and each call
/// returns the job's next `JobStep`. Here the steps from attempt to attempt; one attempt,
/// checkpoints, endings and segments each have their own file (`DownloadJob+Attempt`,
/// `+Checkpoints`, `+Endings`, `+Segments`).
final class DownloadJob {
    let download: PreparedDownload
    let environment: DownloadEnvironment
    let store: ResumeStore?
    /// Where this job's tasks are made: on the curl thread, whose pass hands their events to
    /// the driver.
    let tasks: any TaskPosting
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
    /// When the job began.
    private var beganAt = 0.0
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
    /// An S3 object's MD5, checked against its ETag (`DownloadJob+EntityTag`) when no
    /// checksum was given.
    let objectDigest: RunningDigest?
    /// Each of the above once (a SHA-256 checksum is also the report's SHA-256).
    let digests: [RunningDigest]
    /// What the report says of the item, filled in as the job goes.
    var record: ItemRecord
    static let checkpointInterval = 1.0
    /// Where the download is in its life; the driver reads it after each step.
    var phases: DownloadPhaseMachine
    /// Failed attempts so far, and the wait before the next.
    var retries: RetryLoop
    /// The renderer was told the body started.
    var bodyReported = false
    /// `-J` named the file as the server does (`adoptServerName`): `info.path` is that name.
    var hasServerName = false
    /// A resume data file exists for this destination (found, or written by this job).
    var hasResumeData = false
    /// How many times the job waited for a place at its host (`JobStep.waitForHostPlace`).
    var hostPlaceWaits = 0
    /// How long the server last asked the host to wait (Retry-After, SlowDown), until the
    /// driver takes it (`takeHostWait`): it holds the host's other items too.
    private var hostWait: (seconds: Double, cause: HoldCause)?
    /// Where the next attempt asks the body to start.
    var offset: Int64 = 0
    /// What the job waits for: its driver's next call answers it.
    var awaiting = Awaiting.start
    /// The file's sources (its URL, and mirrors), which the attempts and segments ask.
    var sources: MirrorSources
    /// A failed checksum's search for the source at fault, once one began.
    var faults: FaultFinding?
    /// The file's pieces checked against their hashes (Metalink), once its length is known.
    var pieces: PieceCheck?
    /// Why the body now arriving writes no resume data, said when it is interrupted.
    var whyNotContinuable: Uncontinuable {
        get { machine.whyNotContinuable }
        set { machine.whyNotContinuable = newValue }
    }

    init(_ download: PreparedDownload, environment: DownloadEnvironment, tasks: any TaskPosting) {
        self.download = download
        self.tasks = tasks
        self.environment = environment.startingItem()
        phases = DownloadPhaseMachine()
        retries = self.environment.retryLoop()
        let settings = self.environment.settings
        store = download.part.map { ResumeStore(destination: $0.destination) }
        machine = DownloadMachine(
            rules: DownloadMachine.Rules(
                stream: download.part == nil ? download.sink.name : nil, isConditional: download.isConditional,
                updatedSize: download.updatedSize,
                splits: settings.split > 1, minimumSplitSize: settings.minimumSplitSize,
                fetchesWholeFilesOnly: download.request.url.scheme == "scp", refusesRestart: settings.refusesRestart,
                sendsCredentials: settings.transfer.sendsCredentials),
            validators: download.resumeData?.validators ?? EntityValidators(),
            expectedTotal: download.resumeData?.expectedLength)
        hasResumeData = download.resumeData != nil
        sources = MirrorSources(download.sources, urls: download.sourceURLs, hashDecides: download.checksum != nil)
        // Resume data holds the first URL's file: the others are checked against it.
        if let resumeData = download.resumeData {
            sources.fixEntity(by: 0)
            sources.recorded(resumeData.sourceRanges, held: resumeData.heldRanges)
        }
        checksumDigest = download.checksum.map { RunningDigest($0.algorithm) }
        if download.checksum?.algorithm == .sha256 {
            sha256Digest = checksumDigest
        } else {
            sha256Digest = settings.reportsSHA256 ? RunningDigest(.sha256) : nil
        }
        objectDigest = download.isObjectStore && download.checksum == nil ? RunningDigest(.md5) : nil
        digests = [checksumDigest, sha256Digest === checksumDigest ? nil : sha256Digest, objectDigest].compactMap { $0 }
        record = ItemRecord(info: download.info)
    }

    /// The part file was cut to `length` bytes: past it, no source wrote anything and no piece
    /// is checked.
    func partCut(to length: Int64) {
        sources.truncated(to: length)
        pieces?.truncate(to: length)
    }

    /// The item as it is shown and reported: under the server's name once `-J` has it.
    var info: ItemInfo { record.info }

    /// The item as it ended.
    func end(_ outcome: ItemOutcome) -> JobStep {
        download.closeStream()
        phases.move(to: .ended)
        record.outcome = outcome
        record.transferred = bytesThisRun
        if sources.isMirrored {
            record.sources = sources.served
            renderer.handle(.sourcesServed(info, sources.served))
        }
        awaiting = .nothing
        return .ended(outcome)
    }

    /// Seconds the item has taken since its first request went out (since it began, when none
    /// has yet).
    var secondsTaken: Double {
        monotonicSeconds() - (firstRequestAt ?? beganAt)
    }

    /// A task's counters tell when its first request went out.
    func noteRequest(_ progress: TransferProgress) {
        if firstRequestAt == nil, progress.startedAt > 0 { firstRequestAt = progress.startedAt }
    }

    /// The first step: where to continue from, then the first attempt.
    func begin() -> JobStep {
        beganAt = monotonicSeconds()
        do {
            offset = try startingOffset()
        } catch {
            return end(fail(error))
        }
        return nextAttempt(segments: try? segmentsToContinue())
    }

    /// The next attempt: `segments` when some are planned (recorded by an earlier run, or
    /// after a first range whose task goes on as one of them, `first`), else one request from
    /// `offset`.
    func nextAttempt(segments: [Segment]? = nil, adopting first: Handover? = nil) -> JobStep {
        if let segments, !segments.isEmpty { return startSegments(segments, adopting: first) }
        return attempt(from: offset)
    }

    /// One of this job's tasks sent `event`: only the awaited task's events count (one handed
    /// over to segments, or ended, may still have some on their way).
    func handle(_ event: TaskEvent) -> JobStep {
        if case .segments(let transfer, _) = awaiting { return answer(transfer.handle(event)) }
        guard case .awaitingTask(event.taskID) = currentStep else { return currentStep }
        switch awaiting {
        case .attempt(var state):
            let result = attemptEvent(event, &state)
            if let result { return after(result) }
            awaiting = .attempt(state)
            return .awaitingTask(state.task)
        case .wholePartConfirmation(let task, let size, let response):
            guard event.isFinal else { return .awaitingTask(task) }
            return perform(machine.wholePart(confirmed: confirmsWholePart(event, size: size)), after: response)
        case .sizeConfirmation(let task):
            guard event.isFinal else { return .awaitingTask(task) }
            return perform(machine.unchangedLength(serversLength(event)))
        case .start, .retry, .hostPlace, .segments, .commit, .nothing:
            // A late event of a task the job has finished with.
            return currentStep
        }
    }

    /// The retry's wait is over (or the run stopped during it).
    func retryDue(stoppedBy reason: StopReason?) -> JobStep {
        guard reason == nil else { return end(stopped()) }
        // A request its server turned away sent nothing: like a wait for a place at the `-j`
        // gate, the wait for a place at its host is not the item's time.
        if case .hostPlace = awaiting, bytesThisRun == 0 { firstRequestAt = nil }
        offset = machine.offset
        return nextAttempt()
    }

    /// The batch gave up on the job's host while the job waited to retry: it ends with
    /// `failure` instead of trying again.
    func retryAbandoned(_ failure: TransferFailure) -> JobStep {
        switch awaiting {
        case .retry, .hostPlace: return end(fail(failure))
        default: return currentStep
        }
    }

    /// No place among its host's items will free up for the job (none of them is connected):
    /// it retries after a backoff, as after any transient failure.
    func noHostPlace() -> JobStep {
        guard case .hostPlace(let problem) = awaiting else { return currentStep }
        return retry(after: problem)
    }

    /// The step the job waits in, asked again.
    private var currentStep: JobStep {
        switch awaiting {
        case .attempt(let state): .awaitingTask(state.task)
        case .wholePartConfirmation(let task, _, _), .sizeConfirmation(let task): .awaitingTask(task)
        case .start, .retry, .hostPlace, .segments, .commit, .nothing: .waiting
        }
    }

    /// What follows an attempt's result.
    func after(_ result: AttemptResult) -> JobStep {
        switch result {
        case .split(let handover):
            // The first range goes on as a segment; the rest is split among the others.
            offset = handover.from
            let segments = SegmentPlan.afterFirstRange(
                handover.from..<handover.live.end, length: expectedTotal ?? handover.live.end,
                connections: settings.split, minimumSize: settings.minimumSplitSize)
            return nextAttempt(segments: segments, adopting: handover)
        case .decided(let action):
            return perform(action)
        case .serverNamedFileStays(let existing, let reason):
            return end(skipServerNamed(existing, reason: reason))
        case .redirectedOutOfScope(let target):
            return end(skipRedirected(to: target))
        case .stopped:
            return end(stopped())
        case .failed(let failure, let reached):
            if case .connection(.hostGivenUp(let host, let after, _)) = failure.reason {
                // The batch gave up on the host before this request reached it
                // (`TaskManager.giveUp`): the item ends untried, its data as it was, and is
                // said as one whose retry falls due then (`retryAbandoned`).
                return end(fail(HostMessages.notTried(host, reason: after, again: retries.failedAttempts > 0)))
            }
            return perform(machine.attemptFailed(failure, reached: reached))
        case .completed(let response, let reached):
            let size: Int64
            do {
                // Only a success's size is checked against the file's length: an error page
                // (a 404) was not written to the part.
                size = response.head.isSuccess ? try download.part?.size() ?? reached : reached
            } catch {
                return end(fail(error))
            }
            // An S3 store says why in its error body: its code decides the failure's class.
            let refusal =
                download.isObjectStore && !response.head.isSuccess
                ? S3ErrorDocument.failure(response.head, body: response.body) : nil
            return perform(
                machine.attemptCompleted(response.head, reached: reached, size: size, refusal: refusal), after: response)
        }
    }

    /// Does what the machine said, and what it says then, until the job has something to wait
    /// for. `response`: the attempt's, when it completed.
    private func perform(_ action: DownloadMachine.Action, after response: TaskResponse? = nil) -> JobStep {
        if let source = sources.current, let reason = reasonToDropSource(after: action, source: source) {
            return dropSource(source, because: reason)
        }
        switch action {
        case .attempt:
            offset = machine.offset
            return nextAttempt()
        case .fallBack(let reason, let segmentsBegan):
            renderer.handle(
                .notice(
                    segmentsBegan
                        ? DownloadNotices.oneConnectionFromHere(info.path, because: reason)
                        : DownloadNotices.oneConnection(info.path, because: reason)))
            offset = machine.offset
            return nextAttempt()
        case .retry(let failure, let retryAfter) where failure.reason == .connection(.turnedAway) && mayWaitForHostPlace:
            // Not a backoff: the driver lets it try again once its host has a place.
            phases.move(to: .waitingToRetry)
            awaiting = .hostPlace(RetryLoop.Problem(failure: failure, retryAfter: retryAfter))
            return .waitForHostPlace
        case .retry(let failure, let retryAfter):
            return retry(after: RetryLoop.Problem(failure: failure, retryAfter: retryAfter))
        case .startOver(let reason):
            guard startOver(because: reason) else { return end(fail(machine.cannotStartOver(because: reason))) }
            offset = machine.offset
            return nextAttempt()
        case .confirmWholePart(let size):
            guard let task = confirmWholePart(size: size) else { return perform(machine.wholePart(confirmed: false)) }
            awaiting = .wholePartConfirmation(task, size: size, response: response)
            return .awaitingTask(task)
        case .finish(let wholePart, let confirmedByHead):
            if confirmedByHead {
                renderer.handle(
                    .notice(DownloadNotices.wholePartConfirmed(info.path)))
            }
            if wholePart { continuedFrom = machine.offset }
            let head = response?.head ?? ResponseHead()
            let lastModified = head.isSuccess ? response?.lastModified : nil
            return finish(head, lastModified: lastModified)
        case .keepAsNotModified:
            return end(notModified())
        case .confirmSameSize:
            let task = askServersLength()
            awaiting = .sizeConfirmation(task)
            return .awaitingTask(task)
        case .replaceOtherSize(let size, let serverSize):
            renderer.handle(.notice(DownloadNotices.otherSize(info.path, size: size, serverSize: serverSize)))
            sources.dropCondition()
            offset = machine.offset
            return nextAttempt()
        case .fail(let failure, let afterRetries):
            let failure = afterRetries ? retries.finalFailure(failure) : failure
            guard sources.isMirrored, let last = sources.current, MirrorSources.isSourceFailure(failure) else {
                return end(fail(failure))
            }
            // The last source: the failure says it, the report shows it dropped.
            _ = sources.drop(last, because: failure.message)
            return end(fail(MirrorSources.allDropped(last: failure, count: sources.sources.count)))
        case .outputClosed:
            return end(outputClosed())
        }
    }

    private var sendsCredentials: Bool { settings.transfer.sendsCredentials }

    /// An FTP server's turning this item away may wait for a place at its host, not a backoff:
    /// not when the user asked for no retries (`--retry 0`) or a time limit (`--max-time`: the
    /// retry loop keeps waits within it), and not more than `mostHostPlaceWaits` times (a
    /// server that refuses the item however few others run would keep it waiting as long as
    /// they do).
    private var mayWaitForHostPlace: Bool {
        retries.policy.maxRetries > 0 && retries.deadline == nil && hostPlaceWaits < Self.mostHostPlaceWaits
    }

    static let mostHostPlaceWaits = 8

    /// The driver parked the job until its host has a place (`JobStep.waitForHostPlace`).
    func parkedForHostPlace() {
        hostPlaceWaits += 1
    }

    /// How long the server asked the item's host to wait since the driver last asked, if it did.
    func takeHostWait() -> (seconds: Double, cause: HoldCause)? {
        defer { hostWait = nil }
        return hostWait
    }

    /// A request of the item's is out (or waits at the `-j` gate): the driver counts such items
    /// of a host to learn how many connections the host takes (`HostSchedule.turnedAway`).
    var isTransferring: Bool {
        if case .transferring = phases.phase { return true }
        return false
    }

    /// The wait before the next attempt, or the item's ending when there is none.
    private func retry(after problem: RetryLoop.Problem) -> JobStep {
        phases.move(to: .waitingToRetry)
        let asked = problem.retryAfter.flatMap { RetryAfter.seconds($0, now: Int64(time(nil))) }
        // S3's SlowDown asks the bucket for fewer requests, and seldom says for how long: the
        // host's other items wait as long as this one.
        var slowDown = false
        if case .response(let response) = problem.failure.reason { slowDown = response.asksToSlowDown }
        let cause: HoldCause = asked == nil ? .slowDown : .retryAfter
        switch retries.decide(after: problem, item: info) {
        case .wait(let seconds):
            awaiting = .retry
            // The host is held as long as this item waits (which `--max-time` may shorten).
            if asked != nil || slowDown { hostWait = (seconds, cause) }
            return .waitToRetry(seconds: seconds)
        case .giveUp(.exhausted(let failure)):
            // The item tries no more, but the server still asked its host to wait: the host's
            // other items wait as they would after any other answer of the kind.
            hostWait = asked.map { (min($0, RetryAfter.longestWait), .retryAfter) }
            return end(fail(failure))
        case .giveUp(.waitTooLong(let failure)):
            // Longer than afget waits for anything: the host's other items are not held for it
            // either; each meets the server's answer itself.
            return end(fail(failure))
        case .giveUp(.stopped), .giveUp(.retry):
            return end(stopped())
        }
    }

    /// The move into place is done (`failure` nil) or failed.
    func committed(_ failure: TransferFailure?) -> JobStep {
        guard case .commit(let finishing) = awaiting else { return currentStep }
        return end(moved(finishing, failure: failure))
    }

    /// The phase of a new attempt, once its requests are posted.
    func startAttempt() {
        phases.startAttempt()
        record.attempts = phases.attempts
    }

    // MARK: Where to continue

    /// The part is a file with no name that no attempt has written to: one made for this
    /// download, or a spare found empty (`PartFile.openAnonymous`). It holds nothing, so there is
    /// nothing to look at or cut: a batch of small items is spared those system calls.
    var isUnwritten: Bool {
        phases.attempts == 0 && download.part?.isAnonymous == true
    }

    /// min(checkpointed bytes, part size) when resume data allows a validated continue, else 0.
    private func startingOffset() throws(TransferFailure) -> Int64 {
        guard let part = download.part, !isUnwritten else { return 0 }
        let partSize = try part.size()
        guard let resumeData = download.resumeData else {
            if partSize > 0 && settings.refusesRestart {
                throw TransferFailure(.resume(.noResumeData(partPath: part.path)))
            }
            return 0
        }
        guard validators.ifRange != nil else {
            if settings.refusesRestart {
                throw TransferFailure(.resume(.noValidator))
            }
            return 0
        }
        return min(resumeData.bytesReceived, partSize)
    }

    /// Discards the part for a new start from zero (the machine allowed it), saying why;
    /// false when the part cannot be truncated.
    private func startOver(because reason: ResumeFailure) -> Bool {
        guard let part = download.part else { return false }
        renderer.handle(.restarting(info, because: reason))
        store?.remove()
        machine.startedOver()
        do {
            try part.truncate(to: 0)
        } catch {
            return false
        }
        partCut(to: 0)
        return true
    }
}
