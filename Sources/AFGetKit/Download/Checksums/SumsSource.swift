import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import Glibc

/// Where `--checksums` gets its file: a path, or a URL fetched before any item with the run's
/// own settings (headers, credentials, TLS, proxy, retries) by the run's task manager, into
/// memory, as `afget request` fetches a response: afget has one HTTP stack.
public enum SumsSource {
    /// Sums files of release directories are kilobytes; one of a dataset of millions of files
    /// is tens of megabytes. The whole file is held while the run lasts; a fetched one is
    /// limited as every response afget collects in memory.
    static let sizeLimit = ExchangeRunner.bodyLimit

    /// The sums file `argument` names, read and parsed; nil when the run was stopped (Ctrl-C)
    /// while it was fetched. A file that cannot be read or parsed is bad input (exit 2); a
    /// fetch that fails has its failure's status (4 network, 5 TLS, 8 HTTP, …).
    public static func load(
        _ argument: String, manager: TaskManager, options: TransferOptions, retry: RetryPolicy, headers: [HTTPHeader]
    ) async throws(TransferFailure) -> SumsFile? {
        guard argument.contains("://") else { return try SumsFile(parsing: read(argument), name: argument) }
        let shown = removingPassword(from: argument)
        let request: HTTPRequest
        do {
            request = try RequestSerializer(headers: headers).request(url: argument)
        } catch {
            throw TransferFailure(.usage, "--checksums \(error)")
        }
        // Its progress is not the run's: retries are said, the rest is quiet.
        let runner = ExchangeRunner(
            manager: manager, renderer: SharedRenderer(QuietRenderer(showsRetries: true)), options: options, retry: retry)
        let result = await runner.run(request, info: ItemInfo(id: -1, url: shown, path: "-"))
        if result.stopped != nil { return nil }
        guard let response = result.response, result.failure == nil else {
            let failure = result.failure ?? TransferFailure(.internalError, "no response")
            throw TransferFailure(failure.kind, "--checksums \(shown): \(failure.message)")
        }
        guard response.head.isSuccess else {
            let failure = response.head.failure(sentCredentials: options.sendsCredentials)
            throw TransferFailure(failure.kind, "--checksums \(shown): \(failure.message)")
        }
        return try SumsFile(parsing: response.body, name: shown)
    }

    private static func read(_ path: String) throws(TransferFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TransferFailure(.usage, "--checksums \(path): \(describeErrno(errno))") }
        defer { close(descriptor) }
        switch readAll(descriptor, limit: sizeLimit) {
        case .success(let bytes):
            return bytes
        case .failure(.system(let code)):
            throw TransferFailure(.usage, "--checksums \(path): \(describeErrno(code))")
        case .failure(.tooLarge):
            throw TransferFailure(.usage, "--checksums \(path): larger than \(sizeLimit >> 20) MiB")
        }
    }
}
