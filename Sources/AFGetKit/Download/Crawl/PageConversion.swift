import AFGetSupport
import Glibc

/// `-k` on one saved page, on disk: read whole (pages are read up to `CrawlDocument.largest`),
/// rewritten (`LinkConversion`), and written as a download is: into a new file beside it,
/// synced, then renamed over it, so that the page is either as it was or wholly converted,
/// never half. Its mode and times are kept: `--on-exists update` asks with the time the
/// server gave.
enum PageConversion {
    /// Whether the page changed. A page no longer there (removed since) is left alone.
    static func convert(_ page: SavedPage, layout: CrawlLayout) throws(TransferFailure) -> Bool {
        let path = page.path
        let input = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT || errno == ELOOP { return false }
            throw fileFailure(.convertLinks, path, errno: errno)
        }
        var status = stat()
        let bytes: [UInt8]
        do {
            defer { close(input) }
            guard fstat(input, &status) == 0 else { throw fileFailure(.convertLinks, path, errno: errno) }
            guard status.st_mode & S_IFMT == S_IFREG, Int64(status.st_size) <= CrawlDocument.largest else { return false }
            switch readAll(input, limit: Int(CrawlDocument.largest)) {
            case .success(let read): bytes = read
            case .failure(.system(let code)): throw fileFailure(.convertLinks, path, errno: code)
            case .failure(.tooLarge): return false
            }
        }
        guard let url = CrawlURL.normalized(page.url),
            let converted = LinkConversion.converted(
                bytes, kind: page.kind, charset: page.charset, pagePath: path, pageURL: url, layout: layout,
                isInPlace: { fileKind(at: $0, followingSymlinks: true) == S_IFREG })
        else { return false }
        try replace(path, with: converted, keeping: status)
        return true
    }

    private static func replace(_ path: String, with bytes: [UInt8], keeping status: stat) throws(TransferFailure) {
        var template = Array(joinPath(splitPath(path).directory, ".afget-convert-XXXXXX").utf8CString)
        let output = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard output >= 0 else { throw fileFailure(.convertLinks, path, errno: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var times = [status.st_atim, status.st_mtim]
        let failure =
            OutputStream(descriptor: output).write(bytes: bytes)
            ?? (fchmod(output, status.st_mode & 0o7777) == 0 && futimens(output, &times) == 0 && fsync(output) == 0
                ? nil : errno)
        close(output)
        guard failure == nil, rename(temporary, path) == 0 else {
            let code = failure ?? errno
            unlink(temporary)
            throw fileFailure(.convertLinks, path, errno: code)
        }
    }
}
