/// Where an item's body should end up, as the user asked.
public enum OutputTarget: Sendable, Equatable {
    /// A file named after the URL, in this directory.
    case directory(String)
    /// Exactly this path (`-o PATH`).
    case path(String)
    /// Standard output (`-o -`): no part file, no resume.
    case standardOutput
}

/// One thing to download.
public struct DownloadItem: Sendable, Equatable {
    /// The item's position in input order; `id` in JSON progress and reports.
    public let index: Int
    public let url: String
    public let output: OutputTarget
    /// Resume data recorded for this other URL may be continued against `url`
    /// (`afget resume --url`: an expired signed link replaced by a fresh one).
    public let replacesURL: String?

    public init(index: Int, url: String, output: OutputTarget, replacesURL: String? = nil) {
        self.index = index
        self.url = url
        self.output = output
        self.replacesURL = replacesURL
    }
}
