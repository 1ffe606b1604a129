import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import Glibc

/// `afget upload FILE... s3://BUCKET/KEY`: each file in one signed PUT below the threshold,
/// else as a multipart upload whose parts go `-s N` at a time, each through the retry loop on
/// its own. A multipart upload's id and the parts the store acknowledged are recorded
/// (`S3UploadRecordStore`) as each part lands, so the same command continues it after Ctrl-C or
/// a failure, once the store's own list of parts (ListParts) agrees with the record. Every
/// request carries the SHA-256 of its bytes (`x-amz-checksum-sha256`), which the store checks.
public struct S3UploadRunner: Sendable {
    let manager: TaskManager
    let renderer: SharedRenderer
    let options: TransferOptions
    let retry: RetryPolicy
    let access: S3Access
    let settings: S3UploadSettings
    /// The user's `-H` headers: on the object's own requests (PUT, CreateMultipartUpload), so
    /// `Content-Type` or `x-amz-meta-…` describe the object; not on parts.
    let headers: [HTTPHeader]

    public init(
        manager: TaskManager, renderer: SharedRenderer, options: TransferOptions, retry: RetryPolicy, access: S3Access,
        settings: S3UploadSettings, headers: [HTTPHeader]
    ) {
        self.manager = manager
        self.renderer = renderer
        self.options = options
        self.retry = retry
        self.access = access
        self.settings = settings
        self.headers = headers
    }

    private var cancellation: Cancellation { manager.cancellation }

    /// Uploads each in turn until the run stops.
    public func run(_ uploads: [S3Upload]) async -> RunSummary {
        var summary = RunSummary()
        summary.isUpload = true
        var exitCodes: [Int32] = []
        var kept = KeptForNextRun.nothing
        let startedAt = monotonicSeconds()
        renderer.handle(.expecting(items: uploads.count))
        for (index, upload) in uploads.enumerated() where !cancellation.isRequested {
            switch await send(upload, index: index) {
            case .done(let sent):
                summary.downloaded += 1
                summary.bytes += sent
            case .failed(let failure):
                exitCodes.append(failure.exitCode)
                summary.failed += 1
            case .stopped(let what):
                kept = max(kept, what)
                summary.interrupted += 1
            case .skipped:
                break
            }
        }
        summary.seconds = monotonicSeconds() - startedAt
        summary.exitCode = cancellation.exitStatus ?? ExitStatus.combined(exitCodes)
        if let status = cancellation.exitStatus, cancellation.reason != .outputClosed {
            renderer.handle(.interrupted(exitStatus: status, kept: kept))
        }
        renderer.handle(.summary(summary))
        return summary
    }

    /// One file: checked, planned, then sent whole or in parts.
    private func send(_ upload: S3Upload, index: Int) async -> ItemOutcome {
        let info = ItemInfo(id: index, url: upload.location.url, path: upload.file)
        let file = upload.file
        func failed(_ failure: TransferFailure) -> ItemOutcome {
            let failure = ItemFailure(item: file, failure)
            renderer.handle(.failed(info, failure))
            return .failed(failure)
        }
        let identity: SourceFileIdentity
        switch SourceFileIdentity.of(file) {
        case .success(let found?): identity = found
        case .success(nil): return failed(TransferFailure(.input(.notRegularFile)))
        case .failure(let error): return failed(fileFailure(.read, file, errno: error.code))
        }
        let plan: S3PartPlan
        do {
            plan = try S3PartPlan(size: identity.size, threshold: settings.threshold, partSize: settings.partSize)
        } catch {
            return failed(error)
        }
        let store = settings.recordDirectory.map {
            S3UploadRecordStore(
                directory: $0, endpoint: access.endpoint.base.absoluteString, url: upload.location.url,
                source: Self.absolutePath(file))
        }
        var earlier: S3UploadRecord?
        do {
            earlier = try store?.load()
        } catch {
            guard settings.restart else { return failed(error.noting(.startOverWithRestart)) }
            store?.remove()
        }
        // An upload that cannot go on is aborted, so the store drops its parts (they are
        // billed while they wait).
        if let old = earlier, settings.restart || !old.fits(identity, plan) {
            let why =
                settings.restart
                ? "--restart: aborting the earlier upload"
                : old.identity != identity
                    ? "changed since its upload began (size, time or inode)"
                    : "cut otherwise now (--part-size, --multipart-threshold) than when its upload began"
            renderer.handle(.notice("\(file): \(why); starting over"))
            await abort(old, upload: upload)
            store?.remove()
            earlier = nil
        }
        // One PUT's exchange says its own `queued`; a multipart upload's requests report to relays.
        guard plan.isMultipart else { return await sendWhole(upload, info: info, identity: identity, failed: failed) }
        renderer.handle(.queued(info))
        let multipart = MultipartSend(runner: self, upload: upload, info: info, plan: plan, identity: identity, store: store)
        return await multipart.run(continuing: earlier, failed: failed)
    }

    /// A file below the threshold: one PUT, its SHA-256 sent for the store to check.
    private func sendWhole(
        _ upload: S3Upload, info: ItemInfo, identity: SourceFileIdentity, failed: (TransferFailure) -> ItemOutcome
    ) async -> ItemOutcome {
        let digest: [UInt8]
        do {
            digest = try FileRangeDigest.sha256(
                of: upload.file, offset: 0, length: identity.size, cancellation: cancellation)
        } catch {
            return cancellation.isRequested ? .stopped(.nothing) : failed(error)
        }
        var headers = self.headers
        headers.append(HTTPHeader(name: "x-amz-checksum-sha256", value: digest.base64))
        // What an SDK sends with it; some stores (moto) keep the checksum only when told.
        headers.append(HTTPHeader(name: "x-amz-sdk-checksum-algorithm", value: "SHA256"))
        let request: HTTPRequest
        do {
            request = try access.request(
                "PUT", to: access.endpoint.objectURL(upload.location), headers: headers,
                body: .parts([.fileRange(path: upload.file, offset: 0, length: identity.size)]))
        } catch {
            return failed(error.failure)
        }
        let exchanges = ExchangeRunner(manager: manager, renderer: renderer, options: options, retry: retry)
        let result = await exchanges.run(request, info: info)
        switch judged(result) {
        case nil: return .stopped(.nothing)
        case .failure(let failure): return failed(failure)
        case .success:
            renderer.handle(
                .done(info, bytes: identity.size, transferred: identity.size, seconds: result.seconds, sha256: digest.hex))
            return .done(transferred: identity.size)
        }
    }

    /// An exchange's response when it is a success; nil when the run stopped. A refusal's
    /// words are the store's (`S3ErrorDocument`); a 200 may carry an `<Error>` too
    /// (CompleteMultipartUpload's, once the parts are joined).
    func judged(_ result: ExchangeRunner.Result) -> Result<TaskResponse, TransferFailure>? {
        if result.stopped != nil { return nil }
        guard let response = result.response, result.failure == nil else {
            return .failure(result.failure ?? TransferFailure(.stop(.noResponse)))
        }
        if let refusal = S3ErrorDocument.failure(response.head, body: response.body) { return .failure(refusal) }
        guard response.head.isSuccess else {
            return .failure(response.head.failure(sentCredentials: access.signing != nil))
        }
        return .success(response)
    }

    /// Asks the store to drop `record`'s upload and its parts. Failing that (the upload is
    /// gone already, the store is away) is said and otherwise ignored: a bucket's lifecycle
    /// rule ends uploads left behind.
    func abort(_ record: S3UploadRecord, upload: S3Upload) async {
        guard
            let request = try? access.request(
                "DELETE", to: access.endpoint.uploadURL(upload.location, uploadID: record.uploadID))
        else { return }
        let info = ItemInfo(id: 0, url: upload.location.url, path: upload.file)
        // Its retries are said, not its progress: no bytes of the file go with it.
        let quiet = SharedRenderer(PartProgressRelay(target: renderer, file: info, total: 0, acknowledged: 0))
        let exchanges = ExchangeRunner(manager: manager, renderer: quiet, options: options, retry: retry)
        if case .failure(let failure)? = judged(await exchanges.run(request, info: info)),
            !Self.isNoSuchUpload(failure)
        {
            renderer.handle(.notice("\(upload.file): the earlier upload could not be aborted: \(failure.message)"))
        }
    }

    static func isNoSuchUpload(_ failure: TransferFailure) -> Bool {
        if case .response(.storeError(_, _, "NoSuchUpload", _)) = failure.reason { return true }
        return false
    }

    /// `path` from the root, links resolved: the record's name must not depend on the
    /// directory the command runs in.
    static func absolutePath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
