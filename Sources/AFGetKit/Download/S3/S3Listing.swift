import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import Dispatch
import Glibc

/// `afget s3://BUCKET/PREFIX/`: every object under each prefix, as the items of one batch.
/// ListObjectsV2 is asked a page (a thousand keys) at a time on the listing's thread, each page
/// read with libxml2 and made into items before the next is asked for, so the transfers start
/// with the first page and a listing of millions of keys holds one page and the feed's
/// read-ahead. An object is saved below `-d` at its key's path below the prefix; `--include`
/// and `--exclude` globs (fnmatch, `*` crossing `/`) choose keys by that same path.
public struct S3Listing: Sendable {
    public let prefixes: [S3Location]
    public let access: S3Access
    public let directory: String?
    public let include: [String]
    public let exclude: [String]

    public init(prefixes: [S3Location], access: S3Access, directory: String?, include: [String], exclude: [String]) {
        self.prefixes = prefixes
        self.access = access
        self.directory = directory
        self.include = include
        self.exclude = exclude
    }

    /// The batch's feed: the listing runs on its own thread ("afget-s3-list") with a task
    /// manager of its own, under the run's stop, the run's `options` and `retry` (a 503
    /// SlowDown is retried as any 503 is), and `headers`.
    public func feed(
        shard: Shard?, cancellation: Cancellation, options: TransferOptions, retry: RetryPolicy, headers: [HTTPHeader]
    ) -> ItemFeed {
        ItemFeed(thread: "afget-s3-list", shard: shard, directory: directory) { deliver in
            let manager = TaskManager(cancellation: cancellation)
            defer { manager.invalidate() }
            let fetcher = PageFetcher(manager: manager, options: options, retry: retry)
            var index = 0
            for prefix in prefixes {
                var token: String?
                repeat {
                    let page: ListObjectsPage
                    switch pageOf(prefix, after: token, headers: headers, fetcher: fetcher) {
                    case .stopped:
                        return
                    case .failed(let failure):
                        _ = deliver([.unusable(failure)])
                        token = nil
                        continue
                    case .page(let read):
                        page = read
                    }
                    var block: [NextItem] = []
                    for key in page.keys {
                        guard let path = relativePath(of: key, below: prefix.key), chosen(path) else { continue }
                        block.append(.item(item(key, in: prefix.bucket, path: path, index: index)))
                        index += 1
                    }
                    guard deliver(block) else { return }
                    token = page.nextToken
                } while token != nil
            }
        }
    }

    private enum PageResult {
        case page(ListObjectsPage)
        case failed(ItemFailure)
        case stopped
    }

    private func pageOf(_ prefix: S3Location, after token: String?, headers: [HTTPHeader], fetcher: PageFetcher)
        -> PageResult
    {
        let url = access.endpoint.listURL(bucket: prefix.bucket, prefix: prefix.key, continuationToken: token)
        func failed(_ failure: TransferFailure) -> PageResult {
            .failed(ItemFailure(item: prefix.url, failure.noting(.at("listing \(prefix.url)"), transient: false)))
        }
        let request: HTTPRequest
        do {
            request = try access.request(to: url, headers: headers)
        } catch {
            return failed(error.failure)
        }
        guard let result = fetcher.fetch(request, shown: prefix.url) else { return .stopped }
        guard let response = result.response, result.failure == nil else {
            return failed(result.failure ?? TransferFailure(.stop(.noResponse)))
        }
        guard response.head.isSuccess else {
            return failed(
                S3ErrorDocument.failure(response.head, body: response.body)
                    ?? response.head.failure(sentCredentials: access.signing != nil))
        }
        guard let page = ListObjectsPage(response.body) else {
            return failed(TransferFailure(.response(.notAListing)))
        }
        return .page(page)
    }

    /// `key`'s path below `prefix`, nil for the prefix itself and for "folder" objects (keys
    /// ending in `/`, which consoles make), which hold no file.
    func relativePath(of key: String, below prefix: String) -> String? {
        guard key.hasPrefix(prefix), !key.hasSuffix("/") else { return nil }
        let rest = key.dropFirst(prefix.count)
        return rest.isEmpty ? nil : String(rest)
    }

    /// Whether `--include` and `--exclude` keep `path`: included when no `--include` is given
    /// or one matches, then dropped when an `--exclude` matches.
    func chosen(_ path: String) -> Bool {
        let matches = { (pattern: String) in fnmatch(pattern, path, 0) == 0 }
        return (include.isEmpty || include.contains(where: matches)) && !exclude.contains(where: matches)
    }

    /// The item for the object at `key`: its `s3://` URL, saved at `path` below `-d`, each
    /// segment made a safe name (a key's `..` cannot leave the directory).
    private func item(_ key: String, in bucket: String, path: String, index: Int) -> DownloadItem {
        let components = path.split(separator: "/").map { FileNaming.safeComponent(String($0)) }
        let file = components.reduce(directory ?? ".") { joinPath($0, $1) }
        return DownloadItem(index: index, url: S3Location(bucket: bucket, key: key).url, output: .path(file))
    }
}

/// A listing page's request, run as a task of the listing's own task manager while the
/// listing's thread waits (it is not one of the few threads tasks run on).
private struct PageFetcher: Sendable {
    let manager: TaskManager
    let options: TransferOptions
    let retry: RetryPolicy

    /// Nil when the run was stopped meanwhile.
    func fetch(_ request: HTTPRequest, shown: String) -> ExchangeRunner.Result? {
        let outcome = PthreadMutex<ExchangeRunner.Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task { [manager, options, retry] in
            let runner = ExchangeRunner(
                manager: manager, renderer: SharedRenderer(QuietRenderer(showsRetries: true)), options: options,
                retry: retry)
            let result = await runner.run(request, info: ItemInfo(id: -1, url: shown, path: "-"))
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { result in result?.stopped == nil ? result : nil }
    }
}
