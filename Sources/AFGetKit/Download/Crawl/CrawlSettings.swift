import AFGetSupport

/// What a recursive download follows and where it puts what it fetched: the command line's
/// `-r`, `-l`, `-np`, `-A`/`-R`, the regexes, `-H`/`-D`, `-p`, `-k`, `--robots` and the layout
/// options, as one value (issue 54). Patterns are kept as given and compiled where they are
/// used (`CrawlScope`), on the crawl's own thread.
public struct CrawlSettings: Sendable, Equatable {
    /// `-r`: links are followed. Without it (`-p` alone) only the start pages and their
    /// requisites are fetched.
    public var recursive = true
    /// `-l N`: how many links from a start page a page may be; nil is `inf`.
    public var level: Int? = CrawlSettings.defaultLevel
    /// `-np`: pages above a start URL's directory are not followed (their requisites still are).
    public var noParent = false
    /// `-A`: globs the name of a kept file must match (any of them); empty keeps every name.
    public var accept: [String] = []
    /// `-R`: globs no kept file's name may match.
    public var reject: [String] = []
    /// `--accept-regex`, `--reject-regex`: POSIX extended regexes on the whole URL, deciding
    /// whether it is fetched at all (start URLs excepted), pages too, as wget does.
    public var acceptRegex: String?
    public var rejectRegex: String?
    /// `-H`: links to other hosts are followed; `-D`: only to these domains and their subdomains.
    public var spanHosts = false
    public var domains: [String] = []
    /// `-p`: everything a page needs to be shown, one level beyond `-l`.
    public var pageRequisites = false
    /// `-k`: links in the pages made to point at the files fetched, once the crawl is over.
    public var convertsLinks = false
    /// `--robots off`, `-e robots=off`: robots.txt and `<meta name="robots">` are not obeyed.
    public var obeysRobots = true
    /// Where the files go.
    public var layout = CrawlLayout()

    /// wget's default depth.
    public static let defaultLevel = 5

    public init() {}

    /// The deepest a followed page may be: `-l`, or 0 with `-p` alone.
    var pageLevel: Int? { recursive ? level : 0 }
}

extension CrawlSettings {
    /// Refuses a pattern regcomp(3) cannot compile, in its words, before the crawl starts.
    public static func checkPattern(_ pattern: String, option: String) throws(TransferFailure) {
        _ = try URLPattern(pattern, option: option)
    }
}
