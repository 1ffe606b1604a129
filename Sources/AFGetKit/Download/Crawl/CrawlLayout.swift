import AFGetSupport

/// Where a crawled URL's file goes, as wget lays it out: `DIR/host/path`, the host with its port
/// when that is not the scheme's default (`-nH` leaves the host out, `--cut-dirs N` the first N
/// directories of the path, `-nd` every directory). A directory URL (`…/`) is saved as
/// `…/index.html`, a URL with a query under its name, a `?` and the query (a `/` in it escaped
/// as `%2F`), each component reduced to a safe name (`FileNaming.safeComponent`).
public struct CrawlLayout: Sendable, Equatable {
    /// `-d DIR`.
    public var directory = "."
    /// Not `-nH`.
    public var hostDirectories = true
    /// `--cut-dirs N`.
    public var cutDirectories = 0
    /// Not `-nd`.
    public var directories = true

    public init(directory: String = ".", hostDirectories: Bool = true, cutDirectories: Int = 0, directories: Bool = true) {
        self.directory = directory
        self.hostDirectories = hostDirectories
        self.cutDirectories = cutDirectories
        self.directories = directories
    }

    /// The file `url` is saved as.
    public func path(for url: CrawlURL) -> String {
        var components: [String] = []
        let segments = url.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if directories {
            if hostDirectories { components.append(FileNaming.safeComponent(url.hostAndPort)) }
            let folders = segments.dropLast().filter { !$0.isEmpty }.dropFirst(cutDirectories)
            components += folders.map { Self.decodedComponent($0) }
        }
        components.append(Self.fileName(of: url))
        return components.reduce(directory) { joinPath($0, $1) }
    }

    /// The name of `url`'s file itself: the last segment of its path (`index.html` for a
    /// directory), then its query.
    public static func fileName(of url: CrawlURL) -> String {
        let last = url.path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        var name = last.isEmpty ? FileNaming.fallbackName : decoded(last)
        if let query = url.query {
            name += "?" + query.replacing("/", with: "%2F")
        }
        return FileNaming.safeComponent(name)
    }

    private static func decodedComponent(_ segment: Substring) -> String {
        FileNaming.safeComponent(decoded(segment))
    }

    /// A segment decoded, as a single download names its file; kept as written when its bytes
    /// are not UTF-8, so that two such names stay two names.
    private static func decoded(_ segment: Substring) -> String {
        FileNaming.percentDecoded(String(segment)) ?? String(segment)
    }
}
