import AFGetProgress
import AFGetRequest
import AFGetSupport
import CurlCore

/// One thing to download.
public struct DownloadItem: Sendable, Equatable {
    /// The item's position in input order; `id` in JSON progress and reports.
    public let index: Int
    public let url: String
    /// The same file from other sources (a list line's tab-separated URLs, `--mirror`), after `url`.
    public let mirrors: [String]
    /// `url` parsed, once: naming, duplicate checks and the request all use it (libcurl's parser
    /// was a tenth of the work of a batch of small files when each of them parsed again).
    let parsedURL: Result<CurlURL, ItemFailure>
    /// `url` as messages, reports and resume data show it: without a password.
    public let shownURL: String
    public private(set) var output: OutputTarget
    /// Resume data recorded for this other URL may be continued against `url`
    /// (`afget resume --url`: an expired signed link replaced by a fresh one).
    public let replacesURL: String?
    /// Where the item came from, for messages: the URL itself, or "FILE:LINE" of a list.
    public let source: String
    /// Verified before the file is moved into place.
    public let checksum: Checksum?
    /// Each piece verified as it completes; a bad one fetched again from another source.
    public let pieces: PieceHashes?
    /// Headers for this item only (`header=` in a list), after the run's own.
    public let headers: [HTTPHeader]
    /// Named as the server says (`-J`) whatever the run's options: resume data of a download
    /// that was (`afget resume`).
    public let takesServerName: Bool
    /// A 4xx answer means there is nothing to fetch, not a failure: a crawl's robots.txt
    /// (a site without one allows everything, RFC 9309 §2.3.1.3).
    let absentIsNoFailure: Bool
    /// Seconds its host asks between the starts of its items (a robots.txt's Crawl-delay, as
    /// the crawl knows it when it hands the item out).
    let hostPace: Double?

    /// `parsedURL` is `url` already parsed, when the caller has it (an input list checks each URL).
    public init(
        index: Int, url: String, parsedURL: CurlURL? = nil, output: OutputTarget, replacesURL: String? = nil,
        source: String? = nil, checksum: Checksum? = nil, headers: [HTTPHeader] = [], takesServerName: Bool = false,
        mirrors: [String] = [], pieces: PieceHashes? = nil, absentIsNoFailure: Bool = false,
        hostPace: Double? = nil
    ) {
        self.index = index
        self.url = url
        self.mirrors = mirrors.filter { $0 != url }
        self.parsedURL =
            parsedURL.map { .success($0) }
            ?? Result { () throws(ItemFailure) in try RequestSerializer.parseURL(url, for: .download) }
        shownURL = removingPassword(from: url)
        self.output = output
        self.replacesURL = replacesURL
        self.source = source ?? shownURL
        self.checksum = checksum
        self.pieces = pieces
        self.headers = headers
        self.takesServerName = takesServerName
        self.absentIsNoFailure = absentIsNoFailure
        self.hostPace = hostPace
    }
}

extension DownloadItem {
    /// How renderers, reports and resume data name this item once its destination is known.
    func info(path: String) -> ItemInfo {
        ItemInfo(id: index, url: shownURL, path: path)
    }

    /// The item as shown before its destination is resolved: queued, or never started.
    var plannedInfo: ItemInfo {
        info(path: output == .standardOutput ? "-" : plannedPath ?? "")
    }

    /// The host its host rules count it against (`HostSchedule`): its origin (scheme, name,
    /// port) as libcurl parsed it, scheme and name lowercased; made when the URL was parsed,
    /// not at each of the item's askings.
    var hostKey: String {
        guard case .success(let url) = parsedURL else { return "" }
        return url.origin
    }

    /// The item saved as `path` instead (`--on-conflict rename`).
    func renamed(to path: String) -> DownloadItem {
        var item = self
        item.output = .path(path)
        return item
    }

    /// The file the item would write before `--on-exists` has its say; nil for standard
    /// output or a URL that cannot be parsed.
    var plannedPath: String? {
        switch output {
        case .standardOutput:
            return nil
        case .path(let given):
            return given
        case .directory(let directory):
            guard case .success(let url) = parsedURL else { return nil }
            return joinPath(directory, FileNaming.name(forURLPath: url.path))
        }
    }
}
