import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport

/// One file's multipart upload: continued from its record once ListParts agrees with it, or
/// created; its missing parts sent `-s N` at a time, the record saved as each lands; then,
/// the file still the one the parts were cut from, completed.
struct MultipartSend: Sendable {
    let runner: S3UploadRunner
    let upload: S3Upload
    let info: ItemInfo
    let plan: S3PartPlan
    let identity: SourceFileIdentity
    let store: S3UploadRecordStore?

    private var file: String { upload.file }
    private var cancellation: Cancellation { runner.manager.cancellation }

    /// How a step that talks to the store ended.
    private enum Step<Value> {
        case value(Value)
        case failed(TransferFailure)
        case stopped
    }

    func run(continuing earlier: S3UploadRecord?, failed: (TransferFailure) -> ItemOutcome) async -> ItemOutcome {
        let startedAt = monotonicSeconds()
        // Requests that are no part report to a relay as id 0: their retries are said, not
        // their bytes.
        let control = ItemInfo(id: 0, url: info.url, path: file)
        let controlExchanges = ExchangeRunner(
            manager: runner.manager,
            renderer: SharedRenderer(PartProgressRelay(target: runner.renderer, file: info, total: plan.size, acknowledged: 0)),
            options: runner.options, retry: runner.retry)
        var record: S3UploadRecord
        switch await resumed(earlier, control: control, through: controlExchanges) {
        case .stopped: return .stopped(.continues)
        case .failed(let failure): return failed(failure)
        case .value(let found?): record = found
        case .value(nil):
            switch await created(control: control, through: controlExchanges) {
            case .stopped: return .stopped(.nothing)
            case .failed(let failure): return failed(failure)
            case .value(let made): record = made
            }
            do {
                try store?.save(record)
            } catch {
                // Unrecorded, the upload could never be continued: the store drops it now.
                await runner.abort(record, upload: upload)
                return failed(error)
            }
        }
        let remaining = record.remaining(of: plan)
        let held = (1...plan.count).filter { record.parts[$0] != nil }.reduce(Int64(0)) { $0 + plan.part($1).length }
        if options.verbose {
            runner.renderer.handle(
                .notice(
                    "\(file): multipart upload \(record.uploadID): \(plan.count) parts of \(Formatting.bytes(plan.partSize)), "
                        + "\(remaining.count) to send, \(runner.settings.connections) at a time"))
        }
        let relay = SharedRenderer(
            PartProgressRelay(target: runner.renderer, file: info, total: plan.size, acknowledged: held))
        let exchanges = ExchangeRunner(
            manager: runner.manager, renderer: relay, options: runner.options, retry: runner.retry)

        let failure = await sendParts(remaining, of: &record, through: exchanges, relay: relay)
        func kept(_ failure: TransferFailure) -> ItemOutcome {
            failed(failure.noting(.uploadKept(parts: record.parts.count, of: plan.count, record: store?.path)))
        }
        if cancellation.isRequested { return .stopped(store == nil ? .nothing : .continues) }
        if let failure { return kept(failure) }

        // Parts cut from one version of the file and sent while it changed would join into
        // an object that never was a file.
        guard case .success(identity?) = SourceFileIdentity.of(file) else {
            await runner.abort(record, upload: upload)
            store?.remove()
            return failed(TransferFailure(.file(.changedWhileUploading(path: file))))
        }
        switch await completed(record, control: control, through: exchanges) {
        case .stopped: return .stopped(store == nil ? .nothing : .continues)
        case .failed(let failure): return kept(failure)
        case .value(let tag):
            store?.remove()
            if options.verbose {
                runner.renderer.handle(
                    .notice("\(file): the object's ETag \(tag) is no MD5 (a multipart upload's is the parts' own)"))
            }
            let sent = plan.size - held
            runner.renderer.handle(
                .done(info, bytes: plan.size, transferred: sent, seconds: monotonicSeconds() - startedAt, sha256: nil))
            return .done(transferred: sent)
        }
    }

    private var options: TransferOptions { runner.options }

    /// `earlier`'s upload, its parts as the store lists them; nil when there is none to
    /// continue (none recorded, or the store no longer has it: started over, said so).
    private func resumed(_ earlier: S3UploadRecord?, control: ItemInfo, through exchanges: ExchangeRunner) async
        -> Step<S3UploadRecord?>
    {
        guard var record = earlier else { return .value(nil) }
        switch await listedParts(of: record, control: control, through: exchanges) {
        case .stopped: return .stopped
        case .failed(let failure) where S3UploadRunner.isNoSuchUpload(failure):
            runner.renderer.handle(.notice("\(file): the store no longer has the earlier upload: starting over"))
            store?.remove()
            return .value(nil)
        case .failed(let failure): return .failed(failure)
        case .value(let listed):
            let dropped = record.trust(listed: listed, plan: plan)
            let again = dropped.isEmpty ? "" : "; \(dropped.count) recorded the store does not hold as sent, sent again"
            runner.renderer.handle(
                .notice(
                    "\(file): continuing the upload: \(record.parts.count) of \(plan.count) parts already in the store"
                        + again))
            return .value(record)
        }
    }

    /// Every part the store holds of `record`'s upload, page by page.
    private func listedParts(of record: S3UploadRecord, control: ItemInfo, through exchanges: ExchangeRunner) async
        -> Step<[ListedPart]>
    {
        var parts: [ListedPart] = []
        var marker: Int?
        repeat {
            let url = runner.access.endpoint.partsURL(upload.location, uploadID: record.uploadID, after: marker)
            let request: HTTPRequest
            do {
                request = try runner.access.request("GET", to: url)
            } catch {
                return .failed(error.failure)
            }
            switch runner.judged(await exchanges.run(request, info: control)) {
            case nil: return .stopped
            case .failure(let failure): return .failed(failure)
            case .success(let response):
                guard let page = MultipartAnswers.partsPage(response.body, after: marker) else {
                    return .failed(TransferFailure(.response(.storeAnswerUnusable(expected: "<ListPartsResult>"))))
                }
                parts += page.parts
                marker = page.nextMarker
            }
        } while marker != nil
        return .value(parts)
    }

    /// A new upload (CreateMultipartUpload), its parts to carry SHA-256 checksums.
    private func created(control: ItemInfo, through exchanges: ExchangeRunner) async -> Step<S3UploadRecord> {
        var headers = runner.headers
        if !headers.contains(where: { $0.name.isSameHeaderName(as: "Content-Type") }) {
            // libcurl would call an empty POST a form, and the object would keep that type.
            headers.append(HTTPHeader(name: "Content-Type", value: "application/octet-stream"))
        }
        headers.append(HTTPHeader(name: "x-amz-checksum-algorithm", value: "SHA256"))
        let request: HTTPRequest
        do {
            request = try runner.access.request(
                "POST", to: runner.access.endpoint.uploadsURL(upload.location), headers: headers, body: .bytes([]))
        } catch {
            return .failed(error.failure)
        }
        switch runner.judged(await exchanges.run(request, info: control)) {
        case nil: return .stopped
        case .failure(let failure): return .failed(failure)
        case .success(let response):
            guard let id = MultipartAnswers.uploadID(response.body) else {
                return .failed(TransferFailure(.response(.storeAnswerUnusable(expected: "<UploadId>"))))
            }
            return .value(
                S3UploadRecord(
                    url: upload.location.url, endpoint: runner.access.endpoint.base.absoluteString, uploadID: id,
                    source: S3UploadRunner.absolutePath(file), identity: identity, partSize: plan.partSize))
        }
    }

    /// What became of one part.
    private enum PartResult: Sendable {
        case sent(number: Int, S3UploadRecord.SentPart)
        case failed(TransferFailure)
        case stopped
    }

    /// Sends `numbers`, `-s N` at a time, recording each the store acknowledges. After a
    /// failure no part starts, those in flight finish (they are kept); returns the first
    /// failure.
    private func sendParts(
        _ numbers: [Int], of record: inout S3UploadRecord, through exchanges: ExchangeRunner, relay: SharedRenderer
    ) async -> TransferFailure? {
        let uploadID = record.uploadID
        var queue = numbers[...]
        var failure: TransferFailure?
        await withTaskGroup(of: PartResult.self) { group in
            for _ in 0..<min(max(runner.settings.connections, 1), queue.count) {
                let number = queue.removeFirst()
                group.addTask { await sendPart(number, uploadID: uploadID, through: exchanges) }
            }
            while let result = await group.next() {
                switch result {
                case .sent(let number, let part):
                    record.partSent(number, part)
                    do throws(TransferFailure) {
                        try store?.save(record)
                    } catch {
                        failure = failure ?? error
                    }
                    let length = plan.part(number).length
                    relay.handle(
                        .done(
                            ItemInfo(id: number, url: info.url, path: file), bytes: length, transferred: length, seconds: 0,
                            sha256: nil))
                case .failed(let partFailure):
                    failure = failure ?? partFailure
                case .stopped:
                    break
                }
                if failure == nil, !cancellation.isRequested, let number = queue.popFirst() {
                    group.addTask { await sendPart(number, uploadID: uploadID, through: exchanges) }
                }
            }
        }
        return failure
    }

    /// One part: its SHA-256, then its bytes, read where they lie in the file.
    private func sendPart(_ number: Int, uploadID: String, through exchanges: ExchangeRunner) async -> PartResult {
        let part = plan.part(number)
        let digest: [UInt8]
        do {
            digest = try FileRangeDigest.sha256(
                of: file, offset: part.offset, length: part.length, cancellation: cancellation)
        } catch {
            return cancellation.isRequested ? .stopped : .failed(error)
        }
        let sha256 = digest.base64
        let request: HTTPRequest
        do {
            request = try runner.access.request(
                "PUT", to: runner.access.endpoint.partURL(upload.location, uploadID: uploadID, number: number),
                headers: [HTTPHeader(name: "x-amz-checksum-sha256", value: sha256)],
                body: .parts([.fileRange(path: file, offset: part.offset, length: part.length)]))
        } catch {
            return .failed(error.failure)
        }
        let result = await exchanges.run(request, info: ItemInfo(id: number, url: info.url, path: file))
        switch runner.judged(result) {
        case nil: return .stopped
        case .failure(let failure): return .failed(failure.noting(.at("part \(number)")))
        case .success(let response):
            guard let tag = response.head.value(of: "ETag"), !tag.isEmpty else {
                return .failed(TransferFailure(.response(.storeAnswerUnusable(expected: "an ETag for part \(number)"))))
            }
            return .sent(number: number, S3UploadRecord.SentPart(entityTag: tag, sha256: sha256))
        }
    }

    /// CompleteMultipartUpload: the parts joined into the object; its ETag.
    private func completed(_ record: S3UploadRecord, control: ItemInfo, through exchanges: ExchangeRunner) async
        -> Step<String>
    {
        let parts = record.parts.keys.sorted().map { (number: $0, part: record.parts[$0]!) }
        let request: HTTPRequest
        do {
            request = try runner.access.request(
                "POST", to: runner.access.endpoint.uploadURL(upload.location, uploadID: record.uploadID),
                headers: [HTTPHeader(name: "Content-Type", value: "application/xml")],
                body: .bytes(MultipartAnswers.completionBody(parts)))
        } catch {
            return .failed(error.failure)
        }
        switch runner.judged(await exchanges.run(request, info: control)) {
        case nil: return .stopped
        case .failure(let failure): return .failed(failure)
        case .success(let response):
            guard let tag = MultipartAnswers.completedEntityTag(response.body) else {
                return .failed(TransferFailure(.response(.storeAnswerUnusable(expected: "<CompleteMultipartUploadResult>"))))
            }
            return .value(tag)
        }
    }
}
