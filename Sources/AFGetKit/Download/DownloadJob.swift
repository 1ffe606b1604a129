/// One item's download from start to finish: where to continue from, each attempt through the
/// task manager, checkpoints of resume data, retries that keep the bytes, and the move into place.
/// Here the attempts and retries; checkpoints, endings and segments each have their own file
/// (`DownloadJob+Checkpoints`, `+Endings`, `+Segments`).
final class DownloadJob {
    typealias Outcome = ItemOutcome

    let download: PreparedDownload
    let manager: TaskManager
    let renderer: SharedRenderer
    let settings: DownloadSettings
    let interrupts: InterruptStatus?
    let store: ResumeStore?

    /// What is known about the remote file: its validators and length.
    var validators: EntityValidators
    var expectedTotal: Int64?
    var lastCheckpointAt = 0.0
    var bytesThisRun: Int64 = 0
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
    var transferEnded: (() -> Void)?
    private var requestPosted: (() -> Void)?
    /// Splitting (`-s`) is refused for the rest of the job once a server answered a range wrongly.
    var splitRefused = false
    /// The renderer was told the body started.
    var bodyReported = false
    /// A resume data file exists for this destination (found, or written by this job).
    var hasResumeData = false

    init(_ download: PreparedDownload, manager: TaskManager, renderer: SharedRenderer,
         settings: DownloadSettings, interrupts: InterruptStatus?) {
        self.download = download
        self.manager = manager
        self.renderer = renderer
        self.settings = settings
        self.interrupts = interrupts
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

    /// Runs the item to its end. `requestPosted` is called once its first request is in the
    /// task manager's hands (where a gate queues it), so the next item may queue behind it.
    /// `transferEnded` is called once no more bytes will come over the network for it (before
    /// the move into place), so the next item's transfer can start while this one waits on
    /// the disk.
    func run(requestPosted: @escaping () -> Void, transferEnded: @escaping () -> Void) async -> Outcome {
        self.requestPosted = requestPosted
        self.transferEnded = transferEnded
        defer {
            self.requestPosted = nil
            self.transferEnded = nil
        }
        defer { download.closeStream() }
        let startedAt = monotonicSeconds()
        var offset: Int64
        do {
            offset = try startingOffset()
        } catch {
            return fail(error)
        }
        var failedAttempts = 0
        var segments = try? segmentsToContinue()
        while true {
            let result: AttemptResult
            if let planned = segments, !planned.isEmpty {
                segments = nil
                result = await attemptSegmented(planned, fallbackOffset: &offset)
            } else {
                result = await attempt(from: offset)
            }
            switch result {
            case .split(let reached):
                offset = reached
                segments = SegmentPlan.initial(length: expectedTotal ?? reached, from: reached, connections: settings.split,
                                               minimumSize: settings.minimumSplitSize)
                continue
            case .fellBack:
                continue
            case .serverNamedFileStays(let existing, let reason):
                return skipServerNamed(existing, reason: reason)
            case .interrupted:
                return interrupted()
            case .failed(let failure, let reached):
                offset = reached
                if failure.kind == .resumeConflict {
                    guard let restarted = restart(because: failure.message) else { return fail(refusedRestart(failure.message)) }
                    offset = restarted
                    continue
                }
                failedAttempts += 1
                guard failure.isTransient, download.part != nil, await waitToRetry(failedAttempts, failure.message, retryAfter: nil) else {
                    return fail(failure, attempts: failedAttempts)
                }
            case .completed(let response, let reached):
                offset = reached
                let head = response.head
                if head.status == 304 && download.isConditional {
                    return notModified()
                }
                if head.isSuccess {
                    return await finish(head, lastModified: response.lastModified, seconds: monotonicSeconds() - startedAt)
                }
                if head.status == 416 && offset > 0 {
                    let total = head.value(of: "Content-Range").flatMap(ContentRange.init)?.total
                    if total == offset {
                        continuedFrom = offset
                        return await finish(head, lastModified: nil, seconds: monotonicSeconds() - startedAt)
                    }
                    if let total, total < offset {
                        return fail(TransferFailure(.resumeConflict,
                            "the local part (\(offset) bytes) is larger than the remote file (\(total) bytes); use --restart to discard it"))
                    }
                    guard let restarted = restart(because: "the server cannot serve the rest (416)") else {
                        return fail(refusedRestart("the server cannot serve the rest (416)"))
                    }
                    offset = restarted
                    continue
                }
                let failure = head.failure(sentCredentials: settings.transfer.sendsCredentials)
                failedAttempts += 1
                guard RetryPolicy.isTransient(status: head.status), download.part != nil,
                    await waitToRetry(failedAttempts, failure.message, retryAfter: head.value(of: "Retry-After"))
                else {
                    return fail(retryAfterFailure ?? failure, attempts: failedAttempts)
                }
            }
        }
    }

    // MARK: Where to continue

    /// min(checkpointed bytes, part size) when resume data allows a validated continue, else 0.
    private func startingOffset() throws(TransferFailure) -> Int64 {
        guard let part = download.part else { return 0 }
        let partSize = try part.size()
        guard let resumeData = download.resumeData else {
            if partSize > 0 && settings.refusesRestart {
                throw TransferFailure(.resumeConflict, "\(part.path) has no resume data, so it cannot be continued (--no-restart)")
            }
            return 0
        }
        guard validators.ifRange != nil else {
            if settings.refusesRestart {
                throw TransferFailure(.resumeConflict, "the server gave no ETag or Last-Modified to continue against (--no-restart)")
            }
            return 0
        }
        return min(resumeData.bytesReceived, partSize)
    }

    /// Starts over from zero unless `--no-restart`; nil when refused.
    private func restart(because reason: String) -> Int64? {
        guard !settings.refusesRestart, let part = download.part else { return nil }
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

    private func refusedRestart(_ reason: String) -> TransferFailure {
        TransferFailure(.resumeConflict, "cannot continue: \(reason); the part file and resume data are kept (--no-restart)")
    }

    // MARK: One attempt

    enum AttemptResult {
        case completed(TaskResponse, reached: Int64)
        case failed(TransferFailure, reached: Int64)
        case interrupted
        /// The response showed the file can be split (`-s`): go on in segments from here.
        case split(reached: Int64)
        /// Segments could not go on; continue with one connection.
        case fellBack
        /// `-J` named the file after one that `--on-exists skip` keeps: its body is not needed.
        case serverNamedFileStays(String, reason: String)
    }

    private func attempt(from start: Int64) async -> AttemptResult {
        // With no validator to continue against, a continue would be blind: start over.
        let offset = validators.ifRange == nil ? 0 : start
        do {
            try download.part?.truncate(to: offset)
        } catch {
            return .failed(error, reached: start)
        }
        var request = download.request
        var resume: ResumeExpectation?
        if offset > 0, let ifRange = validators.ifRange {
            request.headers += [
                HTTPHeader(name: "Range", value: "bytes=\(offset)-", scope: .everyHop),
                HTTPHeader(name: "If-Range", value: ifRange, scope: .everyHop),
                HTTPHeader(name: "Accept-Encoding", value: "identity", scope: .everyHop),
            ]
            resume = ResumeExpectation(
                offset: offset, expectedTotal: expectedTotal, entityTag: validators.entityTag,
                restartsOnFullResponse: !settings.refusesRestart)
        }
        do {
            try catchUpDigests(to: offset)
        } catch {
            return .failed(error, reached: offset)
        }
        let sink = FileDescriptorSink(descriptor: download.sink.descriptor, name: download.sink.name, digests: digests)
        record.attempts += 1
        var options = settings.transfer
        options.gateOrder = info.id
        let task = manager.downloadTask(with: request, to: sink, resume: resume, options: options)
        let id = task.id
        manager.resume(id)
        requestPosted?()
        requestPosted = nil

        var base = offset  // where this response's first byte lands in the file
        var bodyStarted = false
        var speed = SpeedEstimator()
        // A failure on this side (no room, resume data that cannot be written) that canceled the task.
        var localFailure: TransferFailure?
        var splitting = false
        var serverNamedFileStays: (path: String, reason: String)?
        // A body refused as it started (-J) ends the attempt however the transfer ends, which may
        // be after some or all of it was written: the part file is put back as it was.
        func refusedBody(written: Int64) -> AttemptResult? {
            if let serverNamedFileStays { return .serverNamedFileStays(serverNamedFileStays.path, reason: serverNamedFileStays.reason) }
            guard !bodyStarted, let localFailure else { return nil }
            if written > 0 { try? download.part?.truncate(to: offset) }
            return .failed(localFailure, reached: offset)
        }

        for await event in task.events {
            switch event {
            case .started(_, let head):
                guard head.isSuccess else { continue }
                do {
                    serverNamedFileStays = try adoptServerName(head)
                } catch {
                    localFailure = error
                }
                if serverNamedFileStays != nil || localFailure != nil {
                    manager.cancel(id)
                    continue
                }
                bodyStarted = true
                record.httpStatus = head.status  // also for a body cut short or stopped by a signal
                if head.status == 200 && offset > 0 {
                    renderer.handle(.restarting(info, reason: "the server sent the whole file"))
                    base = 0
                }
                learn(from: head, base: base)
                renderer.handle(.started(info, total: expectedTotal, offset: base > 0 ? base : nil))
                continuedFrom = base
                bodyReported = true
                if settings.split > 1 {
                    // This response shows whether ranges work; if so it ends here (its bytes are
                    // kept) and segments take the rest. Keeping it on as the first segment was
                    // measured slower (0.95 s against 0.89 s for 256 MiB over 8 connections from
                    // a rate-limited nginx): fresh requests start with a full rate allowance.
                    if let reason = reasonNotToSplit(head, base: base) {
                        if settings.transfer.verbose { renderer.handle(.notice("* one connection: \(reason)")) }
                    } else {
                        splitting = true
                        manager.cancel(id)
                        continue
                    }
                }
                if let failure = reserveSpace(from: base) {
                    localFailure = failure
                    manager.cancel(id)
                } else if needsFirstCheckpoint(base: base) {
                    localFailure = checkpoint(base)
                    if localFailure != nil { manager.cancel(id) }
                } else {
                    lastCheckpointAt = monotonicSeconds()
                }
            case .progress(_, let progress):
                guard bodyStarted else { continue }
                speed.add(bytes: progress.received, at: monotonicSeconds())
                renderer.handle(.progress(info, bytes: base + progress.received, total: expectedTotal, speed: speed.bytesPerSecond))
                if monotonicSeconds() - lastCheckpointAt >= Self.checkpointInterval {
                    localFailure = checkpoint(base + progress.written)
                    if localFailure != nil { manager.cancel(id) }
                }
            case .verbose(_, let line):
                renderer.handle(.notice(line))
            case .redirected(_, _, let target):
                if settings.transfer.verbose {
                    renderer.handle(.notice("* following redirect to \(TerminalText.clean(removingPassword(from: target)))"))
                }
            case .suspended, .resumed:
                continue
            case .completed(_, let response):
                record.httpStatus = response.head.status
                bytesThisRun += response.progress.received
                if let refused = refusedBody(written: response.progress.written) { return refused }
                if bodyStarted && response.head.isSuccess {
                    // The whole body, while the file is moved into place: a bar at 100%, not
                    // at its last sample (0% for a file quicker than one).
                    renderer.handle(.progress(info, bytes: base + response.progress.written, total: expectedTotal,
                                              speed: speed.bytesPerSecond))
                }
                return .completed(response, reached: bodyStarted ? base + response.progress.written : offset)
            case .failed(_, let failure, let progress):
                bytesThisRun += progress.received
                if let refused = refusedBody(written: progress.written) { return refused }
                let reached = bodyStarted ? base + progress.written : offset
                // The job's own reason wins over what its cancel left the task to report.
                return stopped(by: localFailure ?? failure, reached: reached, bodyStarted: bodyStarted)
            case .canceled(_, let progress):
                bytesThisRun += progress.received
                if let refused = refusedBody(written: progress.written) { return refused }
                let reached = bodyStarted ? base + progress.written : offset
                if let localFailure { return stopped(by: localFailure, reached: reached, bodyStarted: bodyStarted) }
                // Segments checkpoint these bytes as soon as their connections are asked for,
                // instead of holding them up for a sync here.
                if splitting && interrupts?.wasInterrupted != true { return .split(reached: reached) }
                if bodyStarted { _ = checkpoint(reached) }
                return interrupts?.wasInterrupted == true
                    ? .interrupted : .failed(TransferFailure(.internalError, "canceled"), reached: reached)
            }
        }
        return .failed(TransferFailure(.internalError, "the task manager stopped early"), reached: offset)
    }

    /// Validators and length of the entity now being received.
    private func learn(from head: ResponseHead, base: Int64) {
        if settings.transfer.decompresses && head.isEncoded {
            // The file holds decoded bytes, which a range of the encoded body cannot continue:
            // no resume data, so a later run starts over.
            validators = EntityValidators()
            expectedTotal = nil
            return
        }
        validators = EntityValidators(of: head)
        if head.status == 206, let total = head.value(of: "Content-Range").flatMap(ContentRange.init)?.total {
            expectedTotal = total
        } else {
            expectedTotal = head.contentLength.map { base + $0 }
        }
    }

    // MARK: Retries

    private var retryAfterFailure: TransferFailure?

    /// Waits before the next attempt; false when retries are used up or the run was interrupted.
    private func waitToRetry(_ failedAttempts: Int, _ reason: String, retryAfter: String?) async -> Bool {
        let waiting = RetryWait(policy: settings.retry, interrupts: interrupts)
        let result = await waiting.wait(afterFailedAttempts: failedAttempts, reason: reason, retryAfter: retryAfter) {
            renderer.handle(.retrying(info, attempt: failedAttempts, delay: $0, reason: reason))
        }
        switch result {
        case .retry:
            return true
        case .giveUp:
            return false
        case .tooLongToWait(let failure):
            retryAfterFailure = failure
            return false
        }
    }

}
