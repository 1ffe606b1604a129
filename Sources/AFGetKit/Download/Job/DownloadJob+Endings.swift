import AFGetProgress
import AFGetRequest
import AFGetSupport
import CurlCore
import Glibc

/// How a download ends: moved into place (under the server's name with `-J`), skipped, or
/// stopped with its data kept for the next run.
extension DownloadJob {
    /// Every byte is in: the part is verified, then handed to the group commit (`.commit`),
    /// whose answer comes to `moved`.
    func finish(_ head: ResponseHead, lastModified: Int64?) -> JobStep {
        let seconds = secondsTaken
        let modified = lastModified ?? validators.lastModified.flatMap(HTTPDate.seconds(from:))
        phases.move(to: .verifying)
        do throws(TransferFailure) {
            let size = try download.part?.size() ?? bytesThisRun
            // Segments write out of order, unhashed: the file is hashed once here instead.
            if let refetch = try checkPieces(size: size) { return refetch }
            try catchUpDigests(to: size)
            if let mismatch = checksumMismatch() ?? entityTagMismatch() { return findFault(mismatch: mismatch, size: size) }
            convictSuspect()
            phases.move(to: .moving)
            if let stays = try adoptServerName(head) { return end(skipServerNamed(stays.path, reason: stays.reason)) }
            let finished = Finishing(size: size, seconds: seconds)
            guard let part = download.part else { return end(done(finished)) }
            let move: PartFile.Move
            do {
                move = try part.prepareMove(lastModified: modified, as: hasServerName ? serverNamedMove : nil)
            } catch {
                throw keptForTheNextRun(error, size: size)
            }
            awaiting = .commit(finished)
            return .commit(descriptor: part.descriptor, move)
        } catch {
            return end(failedFinishing(error))
        }
    }

    /// The group commit's answer: the file is in place, or the move failed.
    func moved(_ finishing: Finishing, failure: TransferFailure?) -> ItemOutcome {
        do throws(TransferFailure) {
            do {
                try download.part?.moved(failure: failure)
            } catch  where error.kind == .destinationExists {
                // Another run linked a file there first (a small file has no lock): that one stays.
                download.part?.abandon()
                if settings.onExists == .error { return reportFailure(ItemFailure(item: info.path, error)) }
                renderer.handle(.skipped(info, reason: "another download put it in place first"))
                return .skipped
            } catch {
                throw keptForTheNextRun(error, size: finishing.size)
            }
            return done(finishing)
        } catch {
            return failedFinishing(error)
        }
    }

    /// In place (or written to its stream): the done line.
    private func done(_ finishing: Finishing) -> ItemOutcome {
        if hasResumeData { store?.remove() }
        record.bytes = finishing.size
        record.sha256 = sha256Digest?.hex()
        renderer.handle(
            .done(
                record.info, bytes: finishing.size, transferred: max(0, finishing.size - continuedFrom),
                seconds: finishing.seconds, sha256: record.sha256))
        return .done(transferred: bytesThisRun)
    }

    /// After the transfer, what failed is the file: it is named rather than the URL.
    private func failedFinishing(_ failure: TransferFailure) -> ItemOutcome {
        if cancellation.isRequested { return stopped() }
        return reportFailure(ItemFailure(item: info.path, failure))
    }

    /// The move into place failed (a directory at the destination, say): the part file holds the
    /// whole file, and resume data counting all of it (a small file had none) lets the next run
    /// confirm it with one ranged request (416, nothing to send) and only move it into place,
    /// instead of downloading it again (a directory made read-only keeps it on the part file).
    private func keptForTheNextRun(_ failure: TransferFailure, size: Int64) -> TransferFailure {
        guard let part = download.part else { return failure }
        if part.isAnonymous, let unkept = keepWholePart(size), part.isAnonymous {
            // Still without a name (a directory that refuses new ones): it goes with its descriptor.
            return failure.noting(.couldNotBeKept(because: unkept))
        }
        let nextRun: NextRun
        if validators.ifRange == nil {
            _ = keepWholePart(size)
            nextRun = .downloadsAgainWithoutValidator
        } else if let unrecorded = keepWholePart(size) {
            nextRun = hasResumeData ? .continues : .downloadsAgainWithoutResumeData(because: unrecorded)
        } else {
            nextRun = .movesIntoPlace
        }
        return failure.noting(.keptForTheNextRun(path: part.path, nextRun))
    }

    /// Keeps a whole file for the next run (a checksum that did not match, a move that failed):
    /// named, even without a validator to record, and checkpointed.
    private func keepWholePart(_ size: Int64) -> TransferFailure? {
        do {
            try download.part?.giveName()
        } catch {
            return error
        }
        return checkpoint(size, keepingSmallBody: true)
    }

    /// `-J`'s destination as the move into place takes it: replaced if there, when the policy
    /// replaces files.
    private var serverNamedMove: PartFile.FinalName {
        PartFile.FinalName(path: info.path, replacing: [.overwrite, .update].contains(settings.onExists))
    }

    /// `-J`: where the server's Content-Disposition name puts the file (in the same directory),
    /// under `--on-exists`; nil when there is no such name or the file is named otherwise.
    private func serverNamedPath(_ head: ResponseHead) throws(TransferFailure) -> Destination? {
        guard download.takesServerName, let part = download.part,
            let suggested = head.value(of: "Content-Disposition").flatMap(ContentDisposition.filename(from:))
        else { return nil }
        let name = FileNaming.safeComponent(suggested)
        // A name with nothing usable left (".", ".."), or one of afget's own files, keeps the URL's name.
        guard name != FileNaming.fallbackName || suggested == FileNaming.fallbackName,
            !FileNaming.isWorkingFileName(name)
        else { return nil }
        let path = joinPath(splitPath(part.destination).directory, name)
        guard path != part.destination else { return nil }
        let policy = settings.onExists == .update ? .overwrite : settings.onExists
        return try Destination.resolve(.path(path), for: download.request.url, onExists: policy)
    }

    /// `-J`, the first time a response names the file (as it starts, or as a continued split
    /// download's segments end): from here the item is shown under the server's name, resolved
    /// once. A file of that name that `--on-exists` keeps is returned (and an `error` policy
    /// throws), so the body is not fetched for nothing; one that appears later is refused by the
    /// move into place (unless the policy replaces files).
    func adoptServerName(_ head: ResponseHead) throws(TransferFailure) -> (path: String, reason: SkipReason)? {
        guard !hasServerName else { return nil }
        switch try serverNamedPath(head) {
        case .some(.skip(let existing, let reason)):
            return (existing, reason)
        case .some(.file(let path)), .some(.update(let path, _, _)):
            record.info = ItemInfo(id: info.id, url: info.url, path: path)
            hasServerName = true
            return nil
        case .some(.stream(let path)):
            throw TransferFailure(.file(.existsNotRegular(path: path)))
        case .some(.standardOutput), nil:
            return nil
        }
    }

    /// The server's name for the file is taken and `--on-exists skip` keeps it: the downloaded
    /// copy, or the part of it fetched so far, is not needed, once the file there matches the
    /// item's checksum (one read), as any file kept because it exists must.
    func skipServerNamed(_ existing: String, reason: SkipReason) -> ItemOutcome {
        if let part = download.part, !part.isAnonymous { unlink(part.path) }
        download.part?.abandon()
        store?.remove()
        record.info = ItemInfo(id: info.id, url: info.url, path: existing)
        let checkedReason: SkipReason
        do {
            checkedReason = try PreparedDownload.skipReason(existing, reason, checksum: download.checksum)
        } catch {
            return reportFailure(ItemFailure(item: existing, error))
        }
        renderer.handle(.skipped(info, reason: checkedReason))
        return .skipped
    }

    /// A crawl's item redirected out of its scope: skipped, as a link there would have been;
    /// whatever the new request wrote is not kept.
    func skipRedirected(to target: String) -> ItemOutcome {
        if let part = download.part, !part.isAnonymous { unlink(part.path) }
        download.part?.abandon()
        store?.remove()
        let shown = removingPassword(from: target)
        renderer.handle(.skipped(info, reason: SkipReason("redirected to \(shown), out of the crawl's scope", advice: .none)))
        return .skipped
    }

    /// How the digest of all the part's bytes differs from the checksum, if it does.
    func checksumMismatch() -> DigestMismatch? {
        guard let checksum = download.checksum, let checksumDigest else { return nil }
        return checksum.mismatch(with: checksumDigest)
    }

    /// The failure of a file of `size` bytes whose checksum did not match (`mismatch`, and what
    /// the search for the source at fault `found`). It keeps the part file and resume data (counting the whole file), so running
    /// again with the right checksum finishes without downloading again.
    func checksumFailure(_ mismatch: DigestMismatch, size: Int64, found: SourceFinding? = nil) -> TransferFailure {
        if let failure = keepWholePart(size) { return failure }
        return TransferFailure(.checksum(.mismatch(mismatch, found: found, keptIn: download.part?.path)))
    }

    /// Brings the digests to the first `offset` bytes of the part file, reading what they have
    /// not seen (once, when continuing an earlier run). Gigabytes take a while: the run's stop
    /// ends it.
    func catchUpDigests(to offset: Int64) throws(TransferFailure) {
        for digest in digests where digest.bytesDigested != offset {
            guard let part = download.part else { continue }
            digest.reset()
            try part.read(upTo: offset) { bytes, count in
                digest.update(bytes, count)
                return !cancellation.isRequested
            }
            if cancellation.isRequested { throw TransferFailure(.stop(.bySignal)) }
        }
    }

    /// `--on-exists update` and the server's copy is not newer: the file stays as it is, once a
    /// checksum it has is matched by one read of it (a 304 says nothing of the bytes here).
    func notModified() -> ItemOutcome {
        download.part?.abandon()
        record.httpStatus = 304
        let reason: SkipReason
        do {
            reason = try PreparedDownload.skipReason(info.path, "not modified on the server", checksum: download.checksum)
        } catch {
            return reportFailure(ItemFailure(item: info.path, error))
        }
        renderer.handle(.skipped(info, reason: reason))
        return .skipped
    }

    /// Stopped by a signal (or `--fail-fast`): data is kept for the next run, an empty part
    /// file is not.
    func stopped() -> ItemOutcome {
        let startsOver = download.part?.isAnonymous == true && bodyReported
        let kept = download.part?.abandon() ?? 0
        // `--fail-fast` stops the runner, not the run: no reason then.
        let bySignal = cancellation.reason != nil && cancellation.reason != .failFast
        var message =
            switch cancellation.reason {
            case .outputClosed: "stopped: standard output was closed"
            case .signal: "stopped by a signal"
            case .failFast, nil: "stopped: an earlier item failed (--fail-fast)"
            }
        // A stream's bytes went to their reader; the next run sends them again from the start.
        var left: KeptForNextRun = bytesThisRun > 0 ? .startsOver : .nothing
        if let part = download.part {
            if startsOver && isSmallNewBody {
                message += "; \(info.path) is small and starts over next run (no resume data)"
                left = .startsOver
            } else if kept == 0 && !startsOver {
                message += " before any byte arrived"
                left = .nothing
            } else if hasResumeData {
                message += "; \(Formatting.bytes(kept)) kept in \(part.path) for the next run"
                left = .continues
            } else {
                // No resume data is written without a validator: the next run starts over.
                let reason = "\(info.path) cannot be continued (\(whyNotContinuable.words)); the next run starts it over"
                renderer.handle(.notice("afget: \(reason)"))
                message += "; \(reason)"
                left = .startsOver
            }
        }
        record.stoppedEarly = ItemRecord.EarlyStop(cause: bySignal ? .interrupted : .failFast, message: message)
        return .stopped(left)
    }

    /// The reader of the stream this item writes to went away: the run stops, quietly.
    func outputClosed() -> ItemOutcome {
        cancellation.stop(.outputClosed)
        return stopped()
    }

    /// Ends the item failed (stopped, when the failure came from the run's stop). The
    /// failure names the URL; a failure that leaves the data worthless removes it.
    func fail(_ failure: TransferFailure) -> ItemOutcome {
        if cancellation.isRequested { return stopped() }
        if failure.discardsData, let part = download.part {
            if !part.isAnonymous { unlink(part.path) }
            store?.remove()
        }
        if failure.kind != .checksumMismatch { download.part?.abandon() }
        if download.absentIsNoFailure, case .response(.httpStatus(let status, _)) = failure.reason, (400..<500).contains(status) {
            renderer.handle(.skipped(info, reason: SkipReason("not on the server (HTTP \(status))", advice: .none)))
            return .skipped
        }
        return reportFailure(ItemFailure(item: info.url, failure))
    }

    private func reportFailure(_ failure: ItemFailure) -> ItemOutcome {
        renderer.handle(.failed(info, failure))
        return .failed(failure)
    }
}
