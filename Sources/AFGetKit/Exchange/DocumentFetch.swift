import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport

/// A document a run reads before its items — a sums file (`--checksums URL`), a Metalink
/// document (`--metalink URL`) — fetched with the run's own settings (headers, credentials, TLS,
/// proxy, retries) by a task manager into memory, as `afget request` fetches a response: afget
/// has one HTTP stack.
public enum DocumentFetch {
    /// Documents are kilobytes to tens of megabytes; one is held whole, limited as every
    /// response afget collects in memory.
    public static let sizeLimit = ExchangeRunner.bodyLimit

    /// The body of `url`; nil when the run was stopped (Ctrl-C) meanwhile. A failure names
    /// `option` and the URL (without its password) and keeps its class: 4 network, 5 TLS,
    /// 6 authentication, 8 HTTP.
    public static func body(
        of url: String, for option: String, manager: TaskManager, options: TransferOptions, retry: RetryPolicy,
        headers: [HTTPHeader]
    ) async throws(TransferFailure) -> [UInt8]? {
        let shown = removingPassword(from: url)
        let request: HTTPRequest
        do {
            request = try RequestSerializer(headers: headers).request(url: url)
        } catch {
            throw error.failure.noting(.at("\(option) \(error.item)"))
        }
        // Its progress is not the run's: retries are said, the rest is quiet.
        let runner = ExchangeRunner(
            manager: manager, renderer: SharedRenderer(QuietRenderer(showsRetries: true)), options: options, retry: retry)
        let result = await runner.run(request, info: ItemInfo(id: -1, url: shown, path: "-"))
        if result.stopped != nil { return nil }
        guard let response = result.response, result.failure == nil else {
            let failure = result.failure ?? TransferFailure(.stop(.noResponse))
            throw failure.noting(.at("\(option) \(shown)"), transient: false)
        }
        guard response.head.isSuccess else {
            let failure = response.head.failure(sentCredentials: options.sendsCredentials)
            throw failure.noting(.at("\(option) \(shown)"), transient: false)
        }
        return response.body
    }
}
