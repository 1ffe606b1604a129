import CurlCore
import Glibc

/// One item's download from start to finish: where to continue from, each attempt through the
/// task manager, checkpoints of resume data, retries that keep the bytes, and the move into place.
final class DownloadJob {
    typealias Outcome = ItemOutcome

    let download: PreparedDownload
    let manager: TaskManager
    let renderer: SharedRenderer
    let settings: DownloadSettings
    let interrupts: InterruptStatus?
    private let store: ResumeStore?

    /// What is known about the remote file: its validators and length.
    var validators: EntityValidators
    var expectedTotal: Int64?
    private var lastCheckpointAt = 0.0
    var bytesThisRun: Int64 = 0
    /// Bytes of the file that earlier runs received, as the body last started: the done line's
    /// speed counts only the rest.
    var continuedFrom: Int64 = 0
    /// Fed by the curl thread as bytes are written: the expected checksum's, and SHA-256 for
    /// reports and JSON progress.
    private let checksumDigest: RunningDigest?
    private let sha256Digest: RunningDigest?
    /// Each of the above once (a SHA-256 checksum is also the report's SHA-256).
    private let digests: [RunningDigest]
    /// What the report says of the item, filled in as the job goes.
    var record: ItemRecord
    private static let checkpointInterval = 1.0
    private var transferEnded: (() -> Void)?
    /// Splitting (`-s`) is refused for the rest of the job once a server answered a range wrongly.
    var splitRefused = false
    /// The renderer was told the body started.
    var bodyReported = false

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

    /// Runs the item to its end. `transferEnded` is called once no more bytes will come over
    /// the network for it (before the move into place), so the next item's transfer can start
    /// while this one waits on the disk.
    func run(transferEnded: @escaping () -> Void) async -> Outcome {
        self.transferEnded = transferEnded
        defer { self.transferEnded = nil }
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
        let task = manager.downloadTask(with: request, to: sink, resume: resume, options: settings.transfer)
        let id = task.id
        manager.resume(id)

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

    // MARK: Checkpoints

    /// The first checkpoint, as the response is accepted, for all but small new files: a body of
    /// at most 1 MiB arrives in moments, and resume data counting none of it is worth no more
    /// than none. Creating and deleting it per file was the largest cost of a batch of 16 KiB
    /// files (ext4 inode allocation, measured with perf); the periodic and stop checkpoints
    /// still cover a small file that stalls.
    private func needsFirstCheckpoint(base: Int64) -> Bool {
        guard base == 0, let expectedTotal else { return true }
        return expectedTotal > Self.smallFileLimit || hasResumeData
    }

    private static let smallFileLimit: Int64 = 1 << 20
    /// A resume data file exists for this destination (found, or written by this job).
    private var hasResumeData = false

    /// Data first (fdatasync), then resume data counting only that data. Nothing is written
    /// when there is no validator to continue against: such a part file is started over anyway.
    func checkpoint(_ bytes: Int64, segments: [Segment] = []) -> TransferFailure? {
        guard let part = download.part, let store, validators.ifRange != nil else { return nil }
        lastCheckpointAt = monotonicSeconds()
        do {
            // Resume data counting no bytes needs no data behind it, nor to survive a crash.
            if bytes > 0 || !segments.isEmpty { try part.syncData() }
            try store.save(ResumeData(
                url: info.url, bytesReceived: bytes, validators: validators,
                tempFileName: splitPath(part.path).name, destination: part.destination, expectedLength: expectedTotal,
                segments: segments, headers: download.userHeaders, takesServerName: download.takesServerName),
                durable: bytes > 0 || !segments.isEmpty)
            hasResumeData = true
            return nil
        } catch {
            return error
        }
    }

    /// The stop checkpoint after a failure. On a full disk the new resume data has no room
    /// either: the part gives back its last bytes so the rest is counted, instead of the next
    /// run starting again from an older checkpoint (or from zero). The message then says how
    /// much is kept, and the attempt ends at the bytes the part file now holds.
    private func stopped(by failure: TransferFailure, reached: Int64, bodyStarted: Bool) -> AttemptResult {
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
        let message = "\(failure.message); \(Formatting.bytes(kept)) kept in \(part.path): run the same command again once there is room"
        return .failed(TransferFailure(failure.kind, message, transient: failure.isTransient, systemErrorCode: failure.systemErrorCode),
                       reached: kept)
    }

    /// What a full disk's part file gives back to make room for its resume data: a few blocks.
    private static let roomForResumeData: Int64 = 64 << 10

    /// Room for the rest of the body, claimed as it starts (see `PartFile.reserveSpace`).
    /// Not for small bodies: a system call each, for nothing, in a batch of them.
    private func reserveSpace(from base: Int64) -> TransferFailure? {
        guard let part = download.part, let expectedTotal, expectedTotal - base > Self.smallFileLimit else { return nil }
        do {
            try part.reserveSpace(upTo: expectedTotal)
            return nil
        } catch {
            return error
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

    // MARK: Endings

    private func finish(_ head: ResponseHead, lastModified: Int64?, seconds: Double) async -> Outcome {
        let modified = lastModified ?? validators.lastModified.flatMap(HTTPDate.seconds(from:))
        do throws(TransferFailure) {
            let size = try download.part?.size() ?? bytesThisRun
            // Segments write out of order, unhashed: the file is hashed once here instead.
            if download.part != nil { try catchUpDigests(to: size) }
            if let failure = try verifyChecksum(size: size) { return fail(failure) }
            transferEnded?()
            if let stays = try adoptServerName(head) { return skipServerNamed(stays.path, reason: stays.reason) }
            try await download.part?.commit(lastModified: modified, as: info.path == download.info.path ? nil : info.path)
            if hasResumeData { store?.remove() }
            record.bytes = size
            record.sha256 = sha256Digest?.hex()
            record.outcome = .downloaded
            renderer.handle(.done(record.info, bytes: size, transferred: max(0, size - continuedFrom), seconds: seconds,
                                 sha256: record.sha256))
            return .downloaded(bytesThisRun)
        } catch {
            let failure = ItemFailure(item: info.path, error)
            record.failure = failure
            renderer.handle(.failed(info, failure))
            return .failed(failure)
        }
    }

    /// `-J`: where the server's Content-Disposition name puts the file (in the same directory),
    /// under `--on-exists`; nil when there is no such name or the file is named otherwise.
    private func serverNamedPath(_ head: ResponseHead) throws(TransferFailure) -> Destination? {
        guard download.takesServerName, let part = download.part,
            let suggested = head.value(of: "Content-Disposition").flatMap(ContentDisposition.filename(from:))
        else { return nil }
        let name = FileNaming.safeComponent(suggested)
        // A name with nothing usable left (".", "..") keeps the URL's name.
        guard name != FileNaming.fallbackName || suggested == FileNaming.fallbackName else { return nil }
        let path = joinPath(splitPath(part.destination).directory, name)
        guard path != part.destination else { return nil }
        let policy = settings.onExists == .update ? .overwrite : settings.onExists
        return try Destination.resolve(.path(path), for: download.request.url, onExists: policy)
    }

    /// `-J`, as a response starts: from here the item is shown under the server's name. A file
    /// of that name that `--on-exists` keeps is returned (and an `error` policy throws), so the
    /// body is not fetched for nothing; the move into place looks again.
    private func adoptServerName(_ head: ResponseHead) throws(TransferFailure) -> (path: String, reason: String)? {
        switch try serverNamedPath(head) {
        case .some(.skip(let existing, let reason)):
            return (existing, reason)
        case .some(.file(let path)), .some(.update(let path, _)):
            record.info = ItemInfo(id: info.id, url: info.url, path: path)
            return nil
        case .some(.stream(let path)):
            throw TransferFailure(.localFile, "\(path) exists and is not a regular file")
        case .some(.standardOutput), nil:
            return nil
        }
    }

    /// The server's name for the file is taken and `--on-exists skip` keeps it: the downloaded
    /// copy, or the part of it fetched so far, is not needed.
    private func skipServerNamed(_ existing: String, reason: String) -> Outcome {
        if let part = download.part { unlink(part.path) }
        download.part?.abandon()
        store?.remove()
        record.info = ItemInfo(id: info.id, url: info.url, path: existing)
        record.outcome = .skipped
        renderer.handle(.skipped(info, reason: reason))
        return .skipped
    }

    /// A mismatch keeps the part file and resume data (counting the whole file), so running
    /// again with the right checksum finishes without downloading again.
    private func verifyChecksum(size: Int64) throws(TransferFailure) -> TransferFailure? {
        guard let checksum = download.checksum, let checksumDigest else { return nil }
        try catchUpDigests(to: size)
        guard let mismatch = checksum.mismatch(with: checksumDigest) else { return nil }
        if let failure = checkpoint(size) { return failure }
        let kept = download.part.map { "; the data is kept in \($0.path) (run again with the right checksum, or --restart)" } ?? ""
        return TransferFailure(.checksumMismatch, "checksum mismatch: \(mismatch)\(kept)")
    }

    /// Brings the digests to the first `offset` bytes of the part file, reading what they have
    /// not seen (once, when continuing an earlier run).
    private func catchUpDigests(to offset: Int64) throws(TransferFailure) {
        for digest in digests where digest.bytesDigested != offset {
            guard let part = download.part else { continue }
            digest.reset()
            try part.read(upTo: offset) { bytes, count in digest.update(bytes, count) }
        }
    }

    /// `--on-exists update` and the server's copy is not newer: the file stays as it is.
    private func notModified() -> Outcome {
        download.part?.abandon()
        record.outcome = .skipped
        record.httpStatus = 304
        renderer.handle(.skipped(info, reason: "not modified on the server"))
        return .skipped
    }

    /// Stopped by a signal: data is kept for the next run, an empty part file is not.
    private func interrupted() -> Outcome {
        let kept = download.part?.abandon() ?? 0
        var message = "stopped by a signal"
        if let part = download.part {
            if kept == 0 {
                message += " before any byte arrived"
            } else if hasResumeData {
                message += "; \(Formatting.bytes(kept)) kept in \(part.path) for the next run"
            } else {
                // No resume data is written without a validator: the next run starts over.
                let reason = "\(info.path) cannot be continued (the server sent no ETag or Last-Modified); the next run starts it over"
                renderer.handle(.notice("afget: \(reason)"))
                message += "; \(reason)"
            }
        }
        record.stoppedEarly = ItemRecord.EarlyStop(cause: .interrupted, message: message)
        return .interrupted(dataKept: kept > 0 && hasResumeData)
    }

    private func fail(_ failure: TransferFailure, attempts: Int = 0) -> Outcome {
        if interrupts?.wasInterrupted == true { return interrupted() }
        if failure.discardsData, let part = download.part {
            unlink(part.path)
            store?.remove()
        }
        if failure.kind != .checksumMismatch { download.part?.abandon() }
        var failure = failure
        if attempts > 1 && failure.isTransient {
            failure = TransferFailure(failure.kind, "\(failure.message) (after \(attempts) attempts)", transient: true)
        }
        let itemFailure = ItemFailure(item: info.url, failure)
        record.failure = itemFailure
        renderer.handle(.failed(info, itemFailure))
        return .failed(itemFailure)
    }
}
