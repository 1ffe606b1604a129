import AFGetSupport
import CurlCore
import Glibc

/// Turns command-line URLs and input-list entries into download items, and checks before any
/// transfer that no two of them would write the same destination.
public enum BatchPlan {
    public struct Plan: Sendable {
        public var items: [DownloadItem] = []
        /// Lines for people: identical items merged.
        public var notices: [String] = []
        /// Two different URLs for one destination: the run must not start.
        public var conflict: ItemFailure?
    }

    /// Command-line URLs first, then the list's entries, in order. `dir=` is relative to
    /// `directory` (the `-d` option, else the current directory); `out=` names the file in it.
    public static func items(
        urls: [String], output: OutputTarget, list: [InputList.Entry], directory: String?,
        checksum: Checksum?, mirrors: [String] = []
    ) -> [DownloadItem] {
        var items = urls.enumerated().map {
            DownloadItem(index: $0, url: $1, output: output, checksum: checksum, mirrors: mirrors)
        }
        for entry in list {
            items.append(item(for: entry, index: items.count, directory: directory))
        }
        return items
    }

    /// A list entry's item: `dir=` is relative to `directory` (`-d`, else the current
    /// directory), `out=` names the file in it.
    static func item(for entry: InputList.Entry, index: Int, directory: String?) -> DownloadItem {
        let base = directory ?? "."
        let entryDirectory = entry.dir.map { $0.hasPrefix("/") ? $0 : joinPath(base, $0) } ?? base
        let target: OutputTarget = entry.out.map { .path(joinPath(entryDirectory, $0)) } ?? .directory(entryDirectory)
        return DownloadItem(
            index: index, url: entry.url, parsedURL: entry.parsedURL, output: target, source: entry.source,
            checksum: entry.checksum, headers: entry.headers, mirrors: entry.mirrors,
            pieces: entry.pieces)
    }

    /// Merges items with the same URL, destination and options; two different URLs, or the same
    /// URL with different `checksum=` or `header=` lines, for one destination are a conflict
    /// naming both (merging would drop a checksum or a header unsaid). The same claims as a
    /// list's (`DestinationClaims`).
    /// With `--on-conflict rename` the later of two URLs for one file is renamed instead.
    public static func check(_ items: [DownloadItem], onConflict: ConflictPolicy = .error) -> Plan {
        var plan = Plan()
        var claims = DestinationClaims(listName: nil, commandLineItems: items, onConflict: onConflict)
        for item in items {
            switch claims.claim(item, line: nil) {
            case .new:
                plan.items.append(item)
            case .renamed(let renamed, let notice):
                plan.items.append(renamed)
                plan.notices.append(notice)
            case .sameAs(let earlier):
                plan.notices.append(DestinationClaims.mergeNotice(item, earlier: earlier))
            case .conflict(let failure):
                plan.conflict = failure
                return plan
            }
        }
        return plan
    }

    /// Why `--report` must not go to `report`: it is the input list, which a re-run reads again,
    /// or a file an item downloads. Either would be replaced by the report at the end.
    static func reportClash(_ report: String, list: String?, items: [DownloadItem]) -> InputFailure? {
        var directories = CanonicalDirectories()
        let target = directories.key(of: report)
        if let list, list != "-", directories.key(of: list) == target || isSameExistingFile(report, list) {
            return .reportIsList(report: report)
        }
        if let item = items.first(where: { $0.plannedPath.map { directories.key(of: $0) } == target }) {
            return .reportIsDownload(report: report, item: item.source)
        }
        return nil
    }

    /// Two names of one existing file (a link, or `..` along the way).
    private static func isSameExistingFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Files named by their directory as the file system resolves it, so `sub/..` and `.`, or a
    /// link and its target, are found to be one directory; each directory resolved once (a
    /// batch's items mostly share one). A directory not made yet is taken from the current one.
    struct CanonicalDirectories {
        private var resolved: [String: String] = [:]
        private var here: String?

        /// One spelling for every name of the file at `path`.
        mutating func key(of path: String) -> String {
            let (directory, name) = splitPath(normalized(path))
            return canonical(directory) + "/" + name
        }

        private mutating func canonical(_ directory: String) -> String {
            if let known = resolved[directory] { return known }
            let canonical: String
            if let real = realpath(directory, nil) {
                canonical = String(cString: real)
                free(real)
            } else if directory.hasPrefix("/") {
                canonical = normalized(directory)
            } else {
                let base = here ?? Self.currentDirectory()
                here = base
                canonical = normalized(base + "/" + directory)
            }
            resolved[directory] = canonical
            return canonical
        }

        private static func currentDirectory() -> String {
            guard let directory = getcwd(nil, 0) else { return "." }
            defer { free(directory) }
            return String(cString: directory)
        }
    }

    /// "./a//b" and "a/b" are the same file.
    static func normalized(_ path: String) -> String {
        if isAlreadyNormal(path) { return path }  // the usual case, without splitting and joining
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// No empty or "." component and no trailing slash: nothing for `normalized` to remove.
    private static func isAlreadyNormal(_ path: String) -> Bool {
        var length = 0  // bytes of the current component so far
        var isDot = false
        var isFirst = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if isDot || (length == 0 && !isFirst) { return false }
                isFirst = false
                length = 0
            } else {
                isDot = length == 0 && byte == UInt8(ascii: ".")
                length += 1
            }
        }
        return length > 0 && !isDot
    }
}
