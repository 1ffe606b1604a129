import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import Glibc

/// Where `--checksums` gets its file: a path, or a URL fetched before any item with the run's
/// own settings by the run's task manager (`DocumentFetch`).
public enum SumsSource {
    static let sizeLimit = DocumentFetch.sizeLimit

    /// The sums file `argument` names, read and parsed; nil when the run was stopped (Ctrl-C)
    /// while it was fetched. A file that cannot be read or parsed is bad input (exit 2); a
    /// fetch that fails has its failure's status (4 network, 5 TLS, 8 HTTP, …).
    public static func load(
        _ argument: String, manager: TaskManager, options: TransferOptions, retry: RetryPolicy, headers: [HTTPHeader]
    ) async throws(TransferFailure) -> SumsFile? {
        guard argument.contains("://") else { return try SumsFile(parsing: read(argument), name: argument) }
        guard
            let body = try await DocumentFetch.body(
                of: argument, for: "--checksums", manager: manager, options: options, retry: retry, headers: headers)
        else { return nil }
        return try SumsFile(parsing: body, name: removingPassword(from: argument))
    }

    private static func read(_ path: String) throws(TransferFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TransferFailure(.input(.sumsUnreadable(path: path, errno: errno))) }
        defer { close(descriptor) }
        switch readAll(descriptor, limit: sizeLimit) {
        case .success(let bytes):
            return bytes
        case .failure(.system(let code)):
            throw TransferFailure(.input(.sumsUnreadable(path: path, errno: code)))
        case .failure(.tooLarge):
            throw TransferFailure(.input(.sumsTooLarge(path: path, limit: sizeLimit)))
        }
    }
}
