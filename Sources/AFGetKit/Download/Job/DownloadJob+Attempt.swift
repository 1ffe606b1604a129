import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport

/// One attempt of a job: a request from where the file's data reaches, the response's body
/// taken on or refused as it starts, and how the attempt ended.
extension DownloadJob {
    enum AttemptResult {
        case completed(TaskResponse, reached: Int64)
        case failed(TransferFailure, reached: Int64)
        /// The run stopped (a signal): the bytes are checkpointed.
        case stopped
        /// The response showed the file can be split (`-s`): its bounded range goes on as the
        /// first segment (`handover`), segments take the rest.
        case split(Handover)
        /// The machine decided what follows before the attempt ended as a whole (`-s`): a first
        /// range done or answered wrongly, or segments that could not go on.
        case decided(DownloadMachine.Action)
        /// `-J` named the file after one that `--on-exists skip` keeps: its body is not needed.
        case serverNamedFileStays(String, reason: SkipReason)
        /// A crawl's item redirected out of its scope: not fetched.
        case redirectedOutOfScope(String)
    }

    /// A first request's bounded range whose response showed the file can be split: its task
    /// goes on, as the first segment, with its events read from here on by the segments.
    struct Handover {
        let task: TaskID
        /// Its range's end, and how far it has got.
        let live: LiveSegment
        /// Where its range starts.
        let from: Int64
        /// The source it asked (`MirrorSources`).
        let source: Int
    }

    /// What one attempt has seen of its response so far.
    struct AttemptState {
        /// The attempt's task.
        let task: TaskID
        /// Where the attempt asked the body to start.
        let offset: Int64
        /// Where the response's first byte lands in the file: 0 when the server sent the whole file.
        var base: Int64
        var bodyStarted = false
        var speed = SpeedEstimator()
        /// Why the job canceled its own task, once it has.
        private(set) var canceledBecause: OwnCancel?

        /// With `-s`: the first request asks for a bounded range, whose end this is.
        var firstRange: LiveSegment?
        /// The response showed that ranges work: its task goes on as the first segment.
        var handsOver = false

        /// Why a job cancels its own task.
        enum OwnCancel {
            /// A failure on this side: no room, resume data that cannot be written.
            case localFailure(TransferFailure)
            /// `-J` found the server's name taken by a file that stays.
            case serverNamedFileStays(path: String, reason: SkipReason)
            /// Redirected to a URL the crawl does not follow (`redirectJudge`).
            case redirectedOutOfScope(target: String)
        }

        var localFailure: TransferFailure? {
            if case .localFailure(let failure) = canceledBecause { failure } else { nil }
        }

        /// Records why the task is canceled; the first reason stands.
        mutating func cancel(because reason: OwnCancel, on tasks: any TaskPosting) {
            guard canceledBecause == nil else { return }
            canceledBecause = reason
            tasks.cancel(task)
        }

        /// The source asked (`MirrorSources`).
        let source: Int

        init(task: TaskID, offset: Int64, source: Int = 0) {
            self.task = task
            self.offset = offset
            self.source = source
            base = offset
        }

        /// Where the file's data reaches once the task wrote `written` bytes of this response.
        func reached(written: Int64) -> Int64 { bodyStarted ? base + written : offset }
    }

    /// Posts an attempt's request from `start` (from 0 when there is no validator to continue
    /// against: a continue would be blind).
    func attempt(from start: Int64) -> JobStep {
        let offset = validators.ifRange == nil ? 0 : start
        do {
            if !isUnwritten { try download.part?.truncate(to: offset) }
        } catch {
            return after(.failed(error, reached: start))
        }
        partCut(to: offset)
        do {
            try catchUpDigests(to: offset)
        } catch {
            return after(.failed(error, reached: offset))
        }
        // With `-s`, the first request asks for a bounded range (`DownloadMachine.firstRangeEnd`).
        let firstRange = machine.firstRangeEnd(from: offset).map { LiveSegment(from: offset, end: $0) }
        let source = sources.current ?? 0
        var state = AttemptState(task: postTask(from: offset, to: firstRange, source: source), offset: offset, source: source)
        state.firstRange = firstRange
        awaiting = .attempt(state)
        return .awaitingTask(state.task)
    }

    /// An event of the attempt's task: its result when the attempt is over.
    func attemptEvent(_ event: TaskEvent, _ state: inout AttemptState) -> AttemptResult? {
        switch event {
        case .started(_, let head):
            takeBody(of: head, &state)
            if state.handsOver, let live = state.firstRange {
                // The rest of this task's events go to the segments.
                return .split(Handover(task: state.task, live: live, from: state.offset, source: state.source))
            }
        case .progress(_, let progress):
            noteRequest(progress)
            guard state.bodyStarted else { return nil }
            noteWritten(state, progress.written)
            let now = monotonicSeconds()
            state.speed.add(bytes: progress.received, at: now)
            renderer.handle(
                .progress(
                    info, bytes: state.base + progress.received, total: expectedTotal,
                    speed: state.speed.bytesPerSecond))
            if now - lastCheckpointAt >= Self.checkpointInterval {
                if let failure = checkpoint(state.base + progress.written) {
                    state.cancel(because: .localFailure(failure), on: tasks)
                }
            }
        case .connecting(_, let host):
            renderer.handle(.connecting(info, host: host))
        case .connected:
            renderer.handle(.connected(info))
        case .redirected(_, _, let target):
            if let notice = event.notice(verbose: settings.transfer.verbose) { renderer.handle(.notice(notice)) }
            // The next request is started already; canceled in the same turn, it fetches nothing.
            if let judge = environment.redirectJudge, !judge(info.id, target) {
                state.cancel(because: .redirectedOutOfScope(target: target), on: tasks)
            }
        case .verbose, .suspended, .resumed:
            if let notice = event.notice(verbose: settings.transfer.verbose) { renderer.handle(.notice(notice)) }
        case .completed(_, let response):
            return completed(response, state)
        case .failed(_, let failure, let progress):
            noteRequest(progress)
            bytesThisRun += progress.received
            if state.bodyStarted { sources.served(state.source, bytes: progress.written) }
            noteWritten(state, progress.written)
            if let refused = refusedBody(written: progress.written, state) { return refused }
            if state.firstRange != nil, !state.bodyStarted, let next = machine.firstRangeFailed(failure, from: offset) {
                return .decided(next)
            }
            // The job's own reason wins over what its cancel left the task to report.
            return stopped(
                by: state.localFailure ?? failure, reached: state.reached(written: progress.written),
                bodyStarted: state.bodyStarted)
        case .canceled(_, let reason, let progress):
            noteRequest(progress)
            if state.bodyStarted { sources.served(state.source, bytes: progress.written) }
            noteWritten(state, progress.written)
            return canceled(progress, because: reason, state)
        }
        return nil
    }

    /// Hands the request for the body from `offset` on (up to `range`'s end when given) to the
    /// task manager, with Range and If-Range when continuing. A bounded range continuing a part
    /// refuses a 200: the job then starts over, and splits again, instead of taking the whole
    /// file on one connection.
    private func postTask(from offset: Int64, to range: LiveSegment?, source: Int) -> TaskID {
        var request = sources.sources[source].request
        var resume: ResumeExpectation?
        if sources.isMirror(source) {
            // Another source than the one that fixed the file: always a range, checked against
            // the file's length and Last-Modified before a byte is written; a whole answer is
            // refused, but from the start one of the file's length whose validators agree is
            // the same file (a mirror without ranges, once the first source is dropped).
            let expected = sources.expected(of: source, entity: validators)
            request = request.ranged(from: offset, to: range?.end, ifRange: expected.ifRange)
            resume = ResumeExpectation(
                offset: offset, end: range?.end, expectedTotal: expectedTotal, recorded: expected,
                restartsOnFullResponse: false, takesTheSameFileWhole: offset == 0 && range == nil,
                fixedBy: sources.fixedBy(comparing: source))
        }
        let ifRange = offset > 0 ? validators.ifRange : nil
        if resume == nil && (ifRange != nil || range != nil) {
            request = request.ranged(from: offset, to: range?.end, ifRange: ifRange)
            resume = ResumeExpectation(
                offset: offset, end: range?.end, expectedTotal: expectedTotal, recorded: validators,
                restartsOnFullResponse: range == nil ? !settings.refusesRestart && download.part != nil : offset == 0)
        }
        let sink = download.sink.feeding(digests)
        var options = settings.transfer
        options.gateOrder = info.id
        options.origin = download.hostKey
        let task = tasks.downloadTask(
            with: request, to: sink, resume: resume, segment: range, options: options, disk: environment.disk,
            buffers: environment.buffers, keepsErrorBody: download.isObjectStore)
        tasks.resume(task)
        startAttempt()
        return task
    }

    /// A successful response's head arrived: its body is taken on (reported, room reserved, the
    /// first checkpoint written), or the task is canceled for a reason of this side, or because
    /// segments take the rest.
    private func takeBody(of head: ResponseHead, _ state: inout AttemptState) {
        guard head.isSuccess else { return }
        do {
            if let stays = try adoptServerName(head) {
                state.cancel(because: .serverNamedFileStays(path: stays.path, reason: stays.reason), on: tasks)
                return
            }
        } catch {
            state.cancel(because: .localFailure(error), on: tasks)
            return
        }
        state.bodyStarted = true
        // The speed counts from here, so the first progress report has one.
        state.speed.add(bytes: 0, at: monotonicSeconds())
        record.httpStatus = httpStatus(of: head)  // also for a body cut short or stopped by a signal
        if head.status == 200 && state.offset > 0 {
            renderer.handle(.restarting(info, because: ResumeExpectation.reasonForFullResponse(head, recorded: validators)))
            state.base = 0
            partCut(to: 0)
        }
        if sources.isMirror(state.source) {
            // Checked against the file before it started; the file stays what its first source said.
            sources.answered(state.source, validators: EntityValidators(of: head))
        } else {
            learn(from: head, base: state.base)
            sources.fixEntity(by: state.source)
            sources.answered(state.source, validators: validators)
        }
        if let max = settings.transfer.limits.maxBodyBytes, let total = expectedTotal, total > max {
            // A range's own length is under the limit; the file it is part of is not.
            let failure = TransferFailure(.response(.tooLarge(limit: max)), discardsData: true)
            state.cancel(because: .localFailure(failure), on: tasks)
            return
        }
        renderer.handle(.started(info, total: expectedTotal, offset: state.base > 0 ? state.base : nil))
        continuedFrom = state.base
        bodyReported = true
        // With `-s`, this response shows whether ranges work; if so it ends here (its bytes
        // are kept) and segments take the rest: fresh requests start with a full rate
        // allowance, which made keeping it on as the first segment slower (docs/performance.md).
        switch machine.responseStarted(head, base: state.base, askedRange: state.firstRange != nil) {
        case .handOver:
            state.handsOver = true
            return
        case .oneConnection(let refusal) where refusal.isWorthSaying:
            renderer.handle(.notice(DownloadNotices.oneConnection(info.path, because: refusal.text)))
        case .oneConnection(let refusal):
            if settings.transfer.verbose {
                renderer.handle(.notice(DownloadNotices.oneConnectionAsExpected(because: refusal.text)))
            }
        case .goOn:
            break
        }
        if let failure = reserveSpace(from: state.base) {
            state.cancel(because: .localFailure(failure), on: tasks)
        } else if !needsFirstCheckpoint(base: state.base) {
            lastCheckpointAt = monotonicSeconds()  // the periodic checkpoints count from here
        } else if let failure = checkpoint(state.base) {
            state.cancel(because: .localFailure(failure), on: tasks)
        }
    }

    /// Validators and length of the entity now being received.
    private func learn(from head: ResponseHead, base: Int64) {
        if head.isEncoded {
            // Servers disagree on what a range of a coded body is (Caddy codes a slice of the
            // plain file, others ignore the range), and decoded bytes are no range of anything:
            // no resume data, so a later run starts over.
            validators = EntityValidators()
            whyNotContinuable = .coded(head.contentEncodings)
            expectedTotal = settings.transfer.decompresses ? nil : head.contentLength.map { base + $0 }
            return
        }
        // A 206 continues the version recorded (its verdict said so): what it leaves out is
        // still that version's and still compared.
        validators = head.status == 206 ? EntityValidators(of: head).keeping(validators) : EntityValidators(of: head)
        whyNotContinuable = Self.withoutValidators(download.request.url.scheme)
        if head.status == 206, let total = head.value(of: "Content-Range").flatMap(ContentRange.init)?.total {
            expectedTotal = total
        } else {
            expectedTotal = head.contentLength.map { base + $0 }
        }
    }

    /// The report's `http_status`: none for FTP and SFTP, whose heads afget puts together.
    private func httpStatus(of head: ResponseHead) -> Int? {
        download.request.url.isRemoteFile ? nil : head.status
    }

    /// Why a file whose server gave nothing to check a continue against cannot be continued.
    private static func withoutValidators(_ scheme: String) -> Uncontinuable {
        switch scheme {
        case "scp": .scpHasNoRanges
        case "ftp", "ftps", "sftp": .noModificationTime
        default: .noValidator
        }
    }

    private func completed(_ response: TaskResponse, _ state: AttemptState) -> AttemptResult {
        record.httpStatus = httpStatus(of: response.head)
        if settings.keepsFinalResponse {
            record.contentType = response.head.value(of: "Content-Type")
            record.finalURL = response.finalURL
        }
        noteRequest(response.progress)
        bytesThisRun += response.progress.received
        if state.bodyStarted && response.head.isSuccess { sources.served(state.source, bytes: response.progress.written) }
        noteWritten(state, response.progress.written)
        if let refused = refusedBody(written: response.progress.written, state) { return refused }
        let reached = state.reached(written: response.progress.written)
        if let range = state.firstRange, let next = machine.firstRangeCompleted(response.head, reached: reached, end: range.end) {
            return .decided(next)
        }
        if state.bodyStarted && response.head.isSuccess {
            // The whole body, while the file is moved into place: a bar at 100%, not
            // at its last sample (0% for a file quicker than one).
            renderer.handle(
                .progress(
                    info, bytes: state.base + response.progress.written, total: expectedTotal,
                    speed: state.speed.bytesPerSecond))
        }
        return .completed(response, reached: reached)
    }

    /// The task was canceled: by the run's stop (`reason`), or by this job (its state says why).
    private func canceled(_ progress: TransferProgress, because reason: StopReason?, _ state: AttemptState) -> AttemptResult {
        bytesThisRun += progress.received
        if let refused = refusedBody(written: progress.written, state) { return refused }
        let reached = state.reached(written: progress.written)
        if let localFailure = state.localFailure {
            return stopped(by: localFailure, reached: reached, bodyStarted: state.bodyStarted)
        }
        // Segments checkpoint these bytes as soon as their connections are asked for,
        // instead of holding them up for a sync here.
        if state.bodyStarted { _ = checkpoint(reached) }
        return reason != nil || cancellation.isRequested
            ? .stopped : .failed(TransferFailure(.stop(.canceled)), reached: reached)
    }

    /// A body refused as it started (-J) ends the attempt however the transfer ends, which may
    /// be after some or all of it was written: the part file is put back as it was.
    private func refusedBody(written: Int64, _ state: AttemptState) -> AttemptResult? {
        if case .serverNamedFileStays(let path, let reason) = state.canceledBecause {
            return .serverNamedFileStays(path, reason: reason)
        }
        if case .redirectedOutOfScope(let target) = state.canceledBecause { return .redirectedOutOfScope(target) }
        guard !state.bodyStarted, let localFailure = state.localFailure else { return nil }
        if written > 0 { try? download.part?.truncate(to: state.offset) }
        return .failed(localFailure, reached: state.offset)
    }
}
