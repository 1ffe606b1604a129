import CurlCore
import Glibc

/// An item checked and ready to transfer: its request, and where the body is written.
struct PreparedDownload {
    let info: ItemInfo
    let request: HTTPRequest
    let output: Output
    /// Resume data found for a part file (already checked against the URL).
    var resumeData: ResumeData?
    /// The request carries If-Modified-Since (`--on-exists update`): a 304 means keep the file.
    var isConditional = false
    var checksum: Checksum? = nil

    /// A part file completed into the destination, or a stream written as the bytes come
    /// (stdout, or a device or FIFO given with `-o`), which cannot be resumed.
    enum Output {
        case part(PartFile)
        case stream(FileDescriptorSink, closesWhenDone: Bool)
    }

    var sink: FileDescriptorSink {
        switch output {
        case .part(let part): FileDescriptorSink(descriptor: part.descriptor, name: part.path)
        case .stream(let sink, _): sink
        }
    }

    var part: PartFile? {
        if case .part(let part) = output { part } else { nil }
    }

    /// Closes a stream afget opened; part files are committed or abandoned by their owner.
    func closeStream() {
        if case .stream(let sink, true) = output { close(sink.descriptor) }
    }

    /// What becomes of an item before any byte is transferred.
    enum Preparation {
        case ready(PreparedDownload)
        case skip(ItemInfo, reason: String)
        case fail(ItemInfo, ItemFailure)
    }

    /// Parses the URL, resolves the destination under `--on-exists`, and opens the part file.
    static func prepare(_ item: DownloadItem, settings: DownloadSettings) -> Preparation {
        switch prepareOutput(item, settings: settings) {
        case .ready(var download):
            download.checksum = item.checksum
            return .ready(download)
        case let other:
            return other
        }
    }

    private static func prepareOutput(_ item: DownloadItem, settings: DownloadSettings) -> Preparation {
        var info = ItemInfo(id: item.index, url: item.url, path: "")
        let request: HTTPRequest
        do {
            request = try RequestSerializer(headers: settings.headers + item.headers).request(url: item.url)
        } catch {
            return .fail(info, error)
        }
        do throws(TransferFailure) {
            switch try Destination.resolve(item.output, for: request.url, onExists: settings.onExists) {
            case .standardOutput:
                info = ItemInfo(id: item.index, url: item.url, path: "-")
                return .ready(PreparedDownload(info: info, request: request, output: .stream(.standardOutput, closesWhenDone: false), resumeData: nil))
            case .stream(let path):
                info = ItemInfo(id: item.index, url: item.url, path: path)
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw fileFailure("open", path, errno: errno) }
                let sink = FileDescriptorSink(descriptor: descriptor, name: path)
                return .ready(PreparedDownload(info: info, request: request, output: .stream(sink, closesWhenDone: true), resumeData: nil))
            case .skip(let path, let reason):
                return .skip(ItemInfo(id: item.index, url: item.url, path: path), reason: reason)
            case .update(let path, let modifiedAt):
                info = ItemInfo(id: item.index, url: item.url, path: path)
                var conditional = request
                conditional.headers.append(HTTPHeader(
                    name: "If-Modified-Since", value: HTTPDate.format(modifiedAt), scope: .everyHop))
                return try prepareFile(item, path: path, request: conditional, settings: settings, updating: true)
            case .file(let path):
                info = ItemInfo(id: item.index, url: item.url, path: path)
                return try prepareFile(item, path: path, request: request, settings: settings, updating: false)
            }
        } catch {
            return .fail(info, ItemFailure(item: info.path.isEmpty ? item.url : info.path, error))
        }
    }

    /// Loads and checks resume data, then opens and locks the part file.
    private static func prepareFile(_ item: DownloadItem, path: String, request: HTTPRequest, settings: DownloadSettings,
                                    updating: Bool) throws(TransferFailure) -> Preparation {
        let info = ItemInfo(id: item.index, url: item.url, path: path)
        let store = ResumeStore(destination: path)
        // Bad or foreign resume data stops the item before anything is touched.
        let resumeData = settings.discardsResumeData ? nil : try store.load()
        if let resumeData, resumeData.url != item.url && resumeData.url != item.replacesURL {
            throw TransferFailure(.resumeConflict,
                "\(store.path) is resume data for \(resumeData.url), not this URL; use --restart to discard it")
        }
        let part = try PartFile.open(for: path)
        if settings.discardsResumeData { store.remove() }
        return .ready(PreparedDownload(info: info, request: request, output: .part(part), resumeData: resumeData,
                                       isConditional: updating))
    }
}
