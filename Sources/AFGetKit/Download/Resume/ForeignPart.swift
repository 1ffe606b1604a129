import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import Glibc

/// `-c` on a file that another tool left short (`curl -o`, `wget` stopped half way, a copy cut
/// off): afget has no resume data for it, so no validator says it is a part of the server's
/// file. Before a byte is appended the server is asked for the file's last bytes again (the
/// overlap); the file is continued only when the server's copy is longer and those bytes are
/// the same. It then becomes afget's own part file, with resume data holding the server's
/// validator, and the usual continue (`Range` with `If-Range`) takes it from there, so a file
/// that changes in between is caught too. Otherwise the file is left exactly as it is.
enum ForeignPart {
    enum Verdict {
        /// Nothing to adopt: no file there, afget's own part file beside it, or a stream.
        case notApplicable
        /// Now `DEST.afpart` with resume data: the download continues it. The notice says what
        /// was checked.
        case adopted(notice: String)
        /// The file already has the server's length, and its last bytes are the server's.
        case complete(path: String, reason: SkipReason)
        /// Left as it is, for this reason.
        case leftAlone(path: String, TransferFailure)
        /// The run stopped while the server was asked.
        case stopped(path: String)
    }

    /// How many of the file's last bytes are asked for again and compared.
    static let overlap: Int64 = 64 << 10

    /// What is known of the file `item` would be written to before the server is asked.
    enum Check {
        case decided(Verdict)
        /// The server is to be asked for the file's last bytes: `request`, whose task's events
        /// go to `answer(_:)`.
        case ask(Question)
    }

    /// The request for a file's last bytes, and what its answer is compared with.
    struct Question {
        let item: DownloadItem
        let request: HTTPRequest
        let path: String
        let size: Int64
        let tail: [UInt8]
        /// Where the asked-for bytes start.
        var from: Int64 { size - Int64(tail.count) }
    }

    /// Checks the file `item` would be written to: whether there is one to adopt, and the
    /// question for the server when there is.
    static func check(_ item: DownloadItem, settings: DownloadSettings) -> Check {
        guard !settings.namesFromServer, !item.takesServerName, let url = try? item.parsedURL.get(),
            case .skip(let path, _)? = try? Destination.resolve(item.output, for: url, onExists: .skip),
            fileKind(at: path) == S_IFREG
        else { return .decided(.notApplicable) }
        let stem = FileNaming.workingFileStem(for: path)
        guard fileKind(at: stem + PartFile.suffix) == nil, fileKind(at: stem + ResumeStore.suffix) == nil else {
            return .decided(.notApplicable)
        }
        let size: Int64
        let tail: [UInt8]
        do {
            (size, tail) = try lastBytes(of: path)
        } catch {
            return .decided(.leftAlone(path: path, error))
        }
        // An empty file has nothing to keep: it becomes a part file without resume data, which
        // is started over.
        if size == 0 {
            return .decided(
                rename(path, to: stem + PartFile.suffix).map { .leftAlone(path: path, $0) } ?? .adopted(notice: ""))
        }
        do {
            let request = try settings.request(for: item, url: url)
            return .ask(Question(item: item, request: request, path: path, size: size, tail: tail))
        } catch {
            return .decided(.leftAlone(path: path, error.failure))
        }
    }

    /// Posts `question`'s request.
    static func ask(_ question: Question, settings: DownloadSettings, tasks: any TaskPosting) -> TaskID {
        var options = settings.transfer
        options.gate = nil  // one small request before the item's place at the -j gate
        let task = tasks.dataTask(
            with: question.request.ranged(from: question.from, to: question.size, ifRange: nil),
            bodyLimit: question.tail.count, options: options)
        tasks.resume(task)
        return task
    }

    /// An event of the question's task: the verdict once the answer says it, else nil.
    static func answer(_ event: TaskEvent, to question: Question, tasks: any TaskPosting) -> Verdict? {
        let path = question.path
        switch event {
        case .started(let id, let head) where head.status == 200:
            tasks.cancel(id)
            return .leftAlone(
                path: path, refusal(.rangesDoNotWork))
        case .completed(_, let response):
            return verdict(response.head, body: response.body, question)
        case .failed(_, let failure, _):
            return .leftAlone(path: path, failure)
        case .canceled:
            return .stopped(path: path)
        default:
            return nil
        }
    }

    /// What the answer to the request for the file's end says.
    private static func verdict(_ head: ResponseHead, body: [UInt8], _ question: Question) -> Verdict {
        let (path, size, tail, from, item) = (question.path, question.size, question.tail, question.from, question.item)
        if head.status == 416, let total = head.value(of: "Content-Range").flatMap(ContentRange.init)?.total, total < size {
            return .leftAlone(path: path, refusal(.largerThanTheServersFile(size: size, total: total)))
        }
        guard head.isSuccess else { return .leftAlone(path: path, head.failure(sentCredentials: false)) }
        guard head.status == 206, !head.isEncoded,
            let range = head.value(of: "Content-Range").flatMap(ContentRange.init), range.first == from,
            let total = range.total
        else {
            return .leftAlone(path: path, refusal(.endNotAPart))
        }
        if total < size {
            return .leftAlone(path: path, refusal(.largerThanTheServersFile(size: size, total: total)))
        }
        guard body == tail else {
            return .leftAlone(
                path: path, refusal(.tailDiffers(bytes: tail.count)))
        }
        let checked = "its last \(tail.count) bytes are the server's"
        if total == size {
            return .complete(path: path, reason: "already complete: it has the server's length (\(size) bytes) and \(checked)")
        }
        let validators = EntityValidators(of: head)
        guard validators.ifRange != nil else {
            return .leftAlone(path: path, refusal(.noValidator))
        }
        let stem = FileNaming.workingFileStem(for: path)
        let partPath = stem + PartFile.suffix
        let data = ResumeData(
            url: item.shownURL, bytesReceived: size, validators: validators, tempFileName: splitPath(partPath).name,
            destination: path, expectedLength: total, headers: item.headers)
        do {
            try ResumeStore(destination: path).save(data)
        } catch {
            return .leftAlone(path: path, error)
        }
        if let failure = rename(path, to: partPath) {
            ResumeStore(destination: path).remove()
            return .leftAlone(path: path, failure)
        }
        return .adopted(
            notice: "afget: \(path): continuing the \(size) bytes already there (-c): the server's file is longer "
                + "(\(total) bytes) and \(checked)")
    }

    /// The file's size and its last bytes (up to `overlap`).
    private static func lastBytes(of path: String) throws(TransferFailure) -> (Int64, [UInt8]) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw fileFailure(.read, path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw fileFailure(.read, path, errno: errno) }
        let size = Int64(status.st_size)
        let count = Int(min(size, overlap))
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, count - done, off_t(size - Int64(count) + Int64(done)))
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw fileFailure(.read, path, errno: result < 0 ? errno : EIO) }
            done += result
        }
        return (size, bytes)
    }

    /// Gives the file its part file's name; never over an existing one.
    private static func rename(_ path: String, to partPath: String) -> TransferFailure? {
        guard link(path, partPath) == 0 else { return fileFailure(.rename, path, errno: errno) }
        unlink(path)
        return nil
    }

    /// Why the file is left alone: a continue that cannot be made safely (exit 9).
    private static func refusal(_ reason: ForeignPartRefusal) -> TransferFailure {
        TransferFailure(.resume(.notContinued(reason)))
    }
}
