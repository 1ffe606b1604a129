/// An item of the crawl that ended, as the crawl needs to hear of it: its record (the file's
/// path and outcome) and two facts of the final response that `ItemRecord` does not carry —
/// the smallest addition the driver makes for the crawl.
public struct CrawlEnding: Sendable {
    public let record: ItemRecord
    /// The final response's Content-Type; nil for a file left by an earlier run (skipped), whose
    /// type the crawl finds from the file itself.
    public let contentType: String?
    /// The URL the final response came from when redirects were followed: the base its links
    /// are resolved against, and a URL the crawl then does not fetch again.
    public let finalURL: String?

    public init(record: ItemRecord, contentType: String? = nil, finalURL: String? = nil) {
        self.record = record
        self.contentType = contentType
        self.finalURL = finalURL
    }
}

/// What an item of the crawl was, for the summary and the exit status.
public enum CrawlRole: Sendable, Equatable {
    /// Read for links (HTML), or followed as a page and found to be a file.
    case page
    case requisite
    /// A host's robots.txt: answered 4xx it means everything is allowed, and is no failure.
    case robots
}

/// What the crawl counts besides the items: links skipped by a rule (each URL once), pages
/// read, pages fetched only for their links and removed (`-A`/`-R`), and pages whose links
/// `-k` rewrote (nil until it has run).
public struct CrawlTally: Sendable, Equatable {
    public var pagesRead = 0
    public var removedAfterReading = 0
    public var pagesConverted: Int?
    public var skipped: [CrawlSkip: Int] = [:]

    public init() {}
}
