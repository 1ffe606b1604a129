import AFGetRequest
import AFGetSession
import AFGetSupport
import CurlCore

/// How every item of a run is downloaded.
public struct DownloadSettings: Sendable {
    public var onExists: OnExistsPolicy
    /// User headers (`-H`), sent to the URL's own origin only.
    public var headers: [HTTPHeader]
    public var transfer: TransferOptions
    public var retry: RetryPolicy
    /// `--restart`: resume data is discarded and every download starts from zero.
    public var discardsResumeData: Bool
    /// `--no-restart`: when a continue turns out impossible, fail (exit 9) instead of starting over.
    public var refusesRestart: Bool
    /// `-c`: a destination that exists without afget's resume data is a file another tool left
    /// short, continued once the server confirms it (`ForeignPart`), instead of being skipped.
    public var continuesExistingFiles = false
    /// Transfers at once (`-j`).
    public var concurrency: Int
    /// Stop starting items after the first failure (`--fail-fast`).
    public var failsFast: Bool
    /// Compute each file's SHA-256 while writing it (for `--report` and JSON progress).
    public var reportsSHA256: Bool
    /// `-s`: connections one file may use at once; `--min-split-size`: the smallest segment.
    public var split: Int
    public var minimumSplitSize: Int64
    /// `-J`: name files as the server's Content-Disposition says (made safe), when not named by `-o` or `out=`.
    public var namesFromServer: Bool
    /// `--max-per-host`, and when a host is given up.
    public var hosts = HostRules()
    /// Each item's record keeps its final response's Content-Type and URL: a crawl reads its
    /// pages by them.
    public var keepsFinalResponse = false
    /// `--checksums`: the sums file items without a `checksum=` of their own are checked against.
    public var sums: SumsCheck?
    /// Where `s3://` URLs go and how their requests are signed; or why the settings for them
    /// could not be read (a profile not found), each `s3://` item's failure.
    public var s3 = Result<S3Access, TransferFailure>.success(.anonymous)

    public init(
        onExists: OnExistsPolicy = .skip, headers: [HTTPHeader] = [], transfer: TransferOptions = TransferOptions(),
        retry: RetryPolicy = RetryPolicy(), discardsResumeData: Bool = false, refusesRestart: Bool = false,
        concurrency: Int = 4, failsFast: Bool = false, reportsSHA256: Bool = false, namesFromServer: Bool = false,
        split: Int = 1, minimumSplitSize: Int64 = 1 << 20
    ) {
        self.split = max(1, split)
        self.minimumSplitSize = minimumSplitSize
        self.namesFromServer = namesFromServer
        self.onExists = onExists
        self.headers = headers
        self.transfer = transfer
        self.retry = retry
        self.discardsResumeData = discardsResumeData
        self.refusesRestart = refusesRestart
        self.concurrency = max(1, concurrency)
        self.failsFast = failsFast
        self.reportsSHA256 = reportsSHA256
    }
}

extension DownloadSettings {
    /// The request for `item` at `url` with the run's headers and the item's: an `s3://` URL
    /// becomes its store's HTTP URL, signed as `s3` says.
    func request(for item: DownloadItem, url: CurlURL) throws(ItemFailure) -> HTTPRequest {
        let headers = self.headers + item.headers
        if url.scheme == "s3" {
            switch s3 {
            case .success(let access): return try access.request(for: url, headers: headers)
            case .failure(let failure): throw ItemFailure(item: item.source, failure, url: item.shownURL)
            }
        }
        return try RequestSerializer(headers: headers).request(url: url)
    }

    /// `request` sent to the mirror at `url` instead: the same method, headers and body. An
    /// `s3://` mirror becomes its store's URL, signed; any other goes unsigned, as the store's
    /// signature is for the store alone.
    func request(_ request: HTTPRequest, at url: CurlURL, for item: DownloadItem) throws(ItemFailure) -> HTTPRequest {
        var mirrored = request
        if url.scheme == "s3" {
            switch s3 {
            case .success(let access):
                let signed = try access.request(for: url, headers: request.headers)
                (mirrored.url, mirrored.signing) = (signed.url, signed.signing)
            case .failure(let failure):
                throw ItemFailure(item: item.source, failure, url: url.absoluteString)
            }
        } else {
            (mirrored.url, mirrored.signing) = (url, nil)
        }
        return mirrored
    }
}
