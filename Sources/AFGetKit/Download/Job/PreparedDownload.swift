import AFGetProgress
import AFGetRequest
import AFGetSupport
import CurlCore
import Glibc

/// An item checked and ready to transfer: its request, and where the body is written.
struct PreparedDownload {
    let info: ItemInfo
    let request: HTTPRequest
    let output: Output
    /// Resume data found for a part file (already checked against the URL).
    let resumeData: ResumeData?
    /// `--on-exists update`: the size of the file there. The request carries If-Modified-Since,
    /// and a 304 keeps the file if the server's copy has this size too.
    let updatedSize: Int64?
    var isConditional: Bool { updatedSize != nil }
    /// Verified before the file is moved into place.
    let checksum: Checksum?
    /// Verified piece by piece (a part file's; a stream's bytes are gone once written).
    let pieces: PieceHashes?
    /// The server's name for the file replaces the URL's (`-J` for a file named after its URL
    /// in a directory, or resume data that says so).
    let takesServerName: Bool
    /// The origin the batch's host rules count the item against (`DownloadItem.hostKey`).
    let hostKey: String
    /// A 4xx ends the item skipped (`DownloadItem.absentIsNoFailure`).
    let absentIsNoFailure: Bool
    /// The file's sources: `request`, then the same request to each mirror.
    let sources: [HTTPRequest]
    /// Their URLs as messages, reports and resume data name them: an `s3://` source names its
    /// object, not the store's address its request goes to.
    let sourceURLs: [String]
    /// An `s3://` object: its store's error bodies are read, and a single-part upload's ETag
    /// (its MD5) checked.
    let isObjectStore: Bool

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

    /// The user's own headers (`-H`, `header=`), not those afget adds: what resume data records
    /// for `afget resume`, less any that may hold a secret.
    var userHeaders: [HTTPHeader] {
        request.headers.filter { $0.scope == .sameOriginOnly }
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
        case skip(ItemInfo, reason: SkipReason)
        case fail(ItemInfo, ItemFailure)
    }

    private init(
        _ item: DownloadItem, path: String, request: HTTPRequest, settings: DownloadSettings, output: Output,
        checksum: Checksum?,
        resumeData: ResumeData? = nil, updatedSize: Int64? = nil, takesServerName: Bool = false
    ) {
        info = item.info(path: path)
        self.request = request
        self.output = output
        self.resumeData = resumeData
        self.updatedSize = updatedSize
        self.checksum = checksum
        if case .part = output { pieces = item.pieces } else { pieces = nil }
        self.takesServerName = takesServerName
        hostKey = item.hostKey
        absentIsNoFailure = item.absentIsNoFailure
        isObjectStore = (try? item.parsedURL.get().scheme) == "s3"
        let mirrors = item.mirrors.compactMap { mirror -> (String, HTTPRequest)? in
            guard let url = try? RequestSerializer.parseURL(mirror, for: .download),
                let mirrored = try? settings.request(request, at: url, for: item)
            else { return nil }
            return (Self.named(url, requestedAs: mirrored), mirrored)
        }
        sources = [request] + mirrors.map(\.1)
        let first = (try? item.parsedURL.get()).map { Self.named($0, requestedAs: request) } ?? request.url.absoluteString
        sourceURLs = [first] + mirrors.map(\.0)
    }

    /// How a source is named: an `s3://` URL as given, any other as its request has it.
    private static func named(_ url: CurlURL, requestedAs request: HTTPRequest) -> String {
        url.scheme == "s3" ? url.absoluteString : request.url.absoluteString
    }

    /// Parses the URL, resolves the destination under `--on-exists`, and opens the part file.
    /// A new download starts in one of `spares` when its directory has one.
    static func prepare(
        _ item: DownloadItem, settings: DownloadSettings, spares: SpareFiles, listings: DirectoryListings
    ) -> Preparation {
        let request: HTTPRequest
        do {
            request = try settings.request(for: item, url: item.parsedURL.get())
        } catch {
            return .fail(item.info(path: ""), error)
        }
        let checksum: Checksum?
        do {
            checksum = try expectedChecksum(item, settings: settings)
        } catch {
            return .fail(item.plannedInfo, error)
        }
        var path = ""  // known once the destination is resolved; failures name it from then on
        do throws(TransferFailure) {
            switch try Destination.resolve(item.output, for: request.url, onExists: settings.onExists, listings: listings) {
            case .standardOutput:
                return .ready(
                    PreparedDownload(
                        item, path: "-", request: request, settings: settings,
                        output: .stream(.standardOutput, closesWhenDone: false), checksum: checksum))
            case .stream(let device):
                path = device
                // A standard stream is shared, not opened again: a redirected file goes on
                // where it is, not from its start.
                let descriptor =
                    OutputStream.named(device).map { fcntl($0.descriptor, F_DUPFD_CLOEXEC, 0) }
                    ?? open(device, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw fileFailure(.open, device, errno: errno) }
                let sink = FileDescriptorSink(descriptor: descriptor, name: device, isStream: true)
                return .ready(
                    PreparedDownload(
                        item, path: device, request: request, settings: settings,
                        output: .stream(sink, closesWhenDone: true), checksum: checksum))
            case .skip(let existing, let reason):
                path = existing
                return .skip(item.info(path: existing), reason: try skipReason(existing, reason, checksum: checksum))
            case .update(let existing, let modifiedAt, let size):
                path = existing
                var conditional = request
                conditional.headers.append(
                    HTTPHeader(
                        name: "If-Modified-Since", value: HTTPDate.format(modifiedAt), scope: .everyHop))
                return try prepareFile(
                    item, path: existing, request: conditional, checksum: checksum, settings: settings, spares: spares,
                    listings: listings, updating: size)
            case .file(let destination):
                path = destination
                do throws(TransferFailure) {
                    return try prepareFile(
                        item, path: destination, request: request, checksum: checksum, settings: settings, spares: spares,
                        listings: listings, updating: nil)
                } catch  where settings.onExists != .overwrite && finishedMeanwhile(destination, error) {
                    return .skip(item.info(path: destination), reason: "another afget downloaded it meanwhile")
                }
            }
        } catch {
            return .fail(item.info(path: path), ItemFailure(item: path.isEmpty ? item.source : path, error))
        }
    }

    /// Whether `failure` came from another afget finishing the file while this one looked: its
    /// part file locked or renamed away under this run, and the destination there now.
    private static func finishedMeanwhile(_ destination: String, _ failure: TransferFailure) -> Bool {
        (failure.kind == .destinationBusy || failure.systemErrorCode == ENOENT) && fileKind(at: destination) == S_IFREG
    }

    /// The checksum the item's file must have: its own (`--checksum`, a list line's `checksum=`),
    /// else the sums file's (`--checksums`); nil when it has none. An item the sums file does not
    /// name is counted, or with `--require-checksums` refused (exit 10).
    static func expectedChecksum(_ item: DownloadItem, settings: DownloadSettings) throws(ItemFailure) -> Checksum? {
        guard item.checksum == nil, let sums = settings.sums else { return item.checksum }
        switch sums.verdict(for: item) {
        case .checksum(let checksum): return checksum
        case .unchecked: return nil
        case .refused(let failure): throw ItemFailure(item: item.plannedPath ?? item.source, failure)
        }
    }

    /// Why an existing file is left as it is, once a checksum it has is matched by one read of
    /// the file; a mismatch throws (exit 10).
    static func skipReason(_ existing: String, _ reason: SkipReason, checksum: Checksum?) throws(TransferFailure) -> SkipReason {
        guard let checksum else { return reason }
        try verify(existing, against: checksum)
        // Checked whole: nothing to continue.
        return reason.adding(" and matches its \(checksum.algorithm.rawValue) checksum", advice: .seeOnExists)
    }

    /// A file kept because it exists must still be the one the checksum names: a re-run with
    /// checksums then proves every file, not only the ones it fetched.
    private static func verify(_ path: String, against checksum: Checksum) throws(TransferFailure) {
        guard let digest = RunningDigest.ofFile(at: path, checksum.algorithm) else {
            throw TransferFailure(.file(.unreadableForChecksum(path: path)))
        }
        if let mismatch = checksum.mismatch(with: digest) {
            throw TransferFailure(.checksum(.existingDiffers(mismatch)))
        }
    }

    /// Opens and locks the part file, then loads and checks resume data.
    private static func prepareFile(
        _ item: DownloadItem, path: String, request: HTTPRequest, checksum: Checksum?, settings: DownloadSettings,
        spares: SpareFiles, listings: DirectoryListings, updating: Int64?
    ) throws(TransferFailure) -> Preparation {
        // Its part file is named shorter, so a name no file may have would only fail at the
        // final rename, after the whole body.
        let nameBytes = splitPath(path).name.utf8.count
        if nameBytes > FileNaming.nameMaxBytes {
            throw TransferFailure(.file(.nameTooLong(bytes: nameBytes, most: FileNaming.nameMaxBytes)))
        }
        let replacing = updating != nil || settings.onExists == .overwrite
        let store = ResumeStore(destination: path)
        let namedAfterURL = if case .directory = item.output { true } else { false }
        let takesServerName = item.takesServerName || (settings.namesFromServer && namedAfterURL)
        // Nothing of an earlier run here: a file with no name until it is complete (small) or
        // needs resume data (large), and nothing on disk if it is stopped first.
        if let anonymous = PartFile.openAnonymous(
            for: path, replacing: replacing, resumeData: store.path, spares: spares, listings: listings)
        {
            return .ready(
                PreparedDownload(
                    item, path: path, request: request, settings: settings, output: .part(anonymous), checksum: checksum,
                    resumeData: nil,
                    updatedSize: updating, takesServerName: takesServerName))
        }
        // The lock first: a destination another afget is downloading is busy (exit 12) whatever
        // else this item would find there, such as that afget's resume data for another URL.
        let part = try PartFile.open(for: path, replacing: replacing)
        // Bad or foreign resume data stops the item before anything is touched (a part file
        // created just now is empty, and removed again).
        let resumeData: ResumeData?
        do throws(TransferFailure) {
            resumeData = try loadResumeData(store, for: item, settings: settings, keptOn: part)
        } catch {
            part.abandon()
            throw error
        }
        if settings.discardsResumeData { store.remove() }
        return .ready(
            PreparedDownload(
                item, path: path, request: request, settings: settings, output: .part(part), checksum: checksum,
                resumeData: resumeData, updatedSize: updating, takesServerName: takesServerName))
    }

    /// The resume data for `item`'s destination, nil when there is none or it is discarded;
    /// unusable data, or data for another URL, is a resume conflict.
    private static func loadResumeData(
        _ store: ResumeStore, for item: DownloadItem, settings: DownloadSettings,
        keptOn part: PartFile
    ) throws(TransferFailure) -> ResumeData? {
        let resumeData: ResumeData?
        do {
            if settings.discardsResumeData {
                if part.heldDataWhenOpened { part.forgetKeptResumeData() }
                resumeData = nil
            } else if let stored = try store.load() {
                resumeData = stored
            } else {
                // Kept on the part file only when its directory refused DEST.afresume.
                resumeData = part.heldDataWhenOpened ? try part.keptResumeData() : nil
            }
        } catch  where error.kind == .resumeConflict {
            throw error.noting(.startOverWithRestart)
        }
        // Resume data holds the URL as shown, without its password (older files: as given).
        if let resumeData, ![item.shownURL, item.url, item.replacesURL].contains(resumeData.url) {
            // The same file at a new address (a re-signed link) continues with `afget resume --url`.
            let resume = ["afget", "resume", "--url", item.shownURL, store.path].map(ShellWord.quoted).joined(separator: " ")
            throw TransferFailure(
                .resume(
                    .resumeDataOfAnotherURL(
                        path: store.path, url: removingPassword(from: resumeData.url), resumeCommand: resume)))
        }
        return resumeData
    }
}
