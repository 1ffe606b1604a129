import AFGetRequest
import AFGetSession
import AFGetSupport
import Dispatch

/// Reads the Metalink documents a list names (`DocumentLine`), where their lines are read: a
/// path from the disk, a URL fetched with the run's settings (`DocumentFetch`, as
/// `--metalink URL`) by a task manager of its own, made at the first URL. The list is read on a
/// thread of its own, which waits for the fetch.
public final class ListDocuments: Sendable {
    private let cancellation: Cancellation
    private let options: TransferOptions
    private let retry: RetryPolicy
    private let headers: [HTTPHeader]
    private let manager = PthreadMutex<TaskManager?>(nil)

    /// `cancellation` is the run's: Ctrl-C ends a fetch as it ends a transfer.
    public init(cancellation: Cancellation, options: TransferOptions, retry: RetryPolicy, headers: [HTTPHeader]) {
        self.cancellation = cancellation
        self.options = options
        self.retry = retry
        self.headers = headers
    }

    /// Ends the task manager, if a document was fetched.
    public func close() {
        manager.withLock { $0 }?.invalidate()
    }

    /// The files `line`'s document describes, as list entries below the line's `dir=` (each
    /// claimed under the line's number); or one failure naming the line and what is wrong with
    /// the document, of the class of the fetch's failure (4, 5, 6, 7, 8), else bad input (2).
    /// Nil when the run was stopped while it was fetched. Blocks: never called from a task.
    func entries(for line: DocumentLine) -> Result<[InputList.Entry], ItemFailure>? {
        let shown = removingPassword(from: line.location)
        var fetched: [UInt8]?
        if line.isURL {
            switch fetch(line.location) {
            case .success(let body):
                guard let body else { return nil }
                fetched = body
            case .failure(let failure):
                return .failure(ItemFailure(item: line.source, failure, url: shown))
            }
        }
        let files: [MetalinkFile]
        do throws(ItemFailure) {
            if let fetched {
                files = try MetalinkReader.files(in: fetched, name: shown)
            } else {
                files = try MetalinkReader.load(line.location)
            }
        } catch {
            // The document's own place ("FILE:LINE") after the list's.
            return .failure(ItemFailure(item: line.source, error.failure.noting(.at(error.item)), url: shown))
        }
        return .success(
            files.map { file in
                var entry = InputList.Entry(metalinkFile: file, document: shown)
                entry.line = line.line
                entry.dir = line.dir
                return entry
            })
    }

    /// `url`'s body, nil when the run was stopped meanwhile: the fetch runs as a task, and this
    /// thread (the list's, not one of the few tasks run on) waits for it.
    private func fetch(_ url: String) -> Result<[UInt8]?, TransferFailure> {
        let manager = manager.withLock { made in
            if made == nil { made = TaskManager(cancellation: cancellation) }
            return made!
        }
        let outcome = PthreadMutex<Result<[UInt8]?, TransferFailure>>(.success(nil))
        let done = DispatchSemaphore(value: 0)
        Task { [options, retry, headers] in
            do throws(TransferFailure) {
                let body = try await DocumentFetch.body(
                    of: url, for: "Metalink document", manager: manager, options: options, retry: retry, headers: headers)
                outcome.withLock { $0 = .success(body) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }
    }
}
