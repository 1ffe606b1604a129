import AFGetSupport
import Glibc

/// A page (or style sheet) the crawl read and kept: what `-k` rewrites once the crawl is over.
struct SavedPage: Equatable {
    let path: String
    /// The URL its links were resolved against (after redirects).
    let url: String
    let kind: CrawlDocument.Kind
    let charset: String?
}

/// The pages a crawl read and kept, in a file of its own (unlinked at once, as the spill
/// queue's), so that `-k` after a million pages holds one page in memory, not a list of them.
/// A crawl run again reads the pages of the earlier run from disk, so it lists them too.
final class SavedPages {
    private var file: Int32 = -1
    private var pending: [UInt8] = []
    private var written = 0
    private let directory: String

    init(directory: String = SpillQueue.temporaryDirectory) {
        self.directory = directory
    }

    deinit {
        if file >= 0 { close(file) }
    }

    func append(_ page: SavedPage) throws(TransferFailure) {
        for field in [page.path, page.url, page.charset ?? ""] {
            let bytes = Array(field.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { pending += $0 }
            pending += bytes
        }
        pending.append(page.kind == .css ? 1 : 0)
        if pending.count >= 64 << 10 { try flush() }
    }

    /// Each page in the order they were read, until `body` returns false.
    func forEach(_ body: (SavedPage) -> Bool) throws(TransferFailure) {
        try flush()
        var offset = 0
        var buffer: [UInt8] = []
        var start = 0
        while true {
            while let (page, next) = Self.decoded(buffer, at: start) {
                guard body(page) else { return }
                start = next
            }
            guard offset < written else { return }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: min(256 << 10, written - offset))
            let got = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, offset) }
            guard got > 0 else { throw failure(got < 0 ? errno : EIO) }
            buffer += chunk[0..<got]
            offset += got
        }
    }

    private func flush() throws(TransferFailure) {
        guard !pending.isEmpty else { return }
        if file < 0 { file = try unlinkedTemporaryFile(in: directory, named: "afget-pages", action: .keepTheCrawlPages) }
        var done = 0
        while done < pending.count {
            let wrote = pending.withUnsafeBytes { pwrite(file, $0.baseAddress! + done, $0.count - done, written + done) }
            guard wrote > 0 else { throw failure(errno) }
            done += wrote
        }
        written += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    /// The page whose bytes start at `offset`, and where the next starts; nil when `bytes` does
    /// not hold the whole of it.
    private static func decoded(_ bytes: [UInt8], at offset: Int) -> (SavedPage, Int)? {
        var cursor = offset
        var fields: [String] = []
        for _ in 0..<3 {
            guard bytes.count - cursor >= 4 else { return nil }
            let length = (0..<4).reduce(0) { $0 | Int(bytes[cursor + $1]) << (8 * $1) }
            cursor += 4
            guard bytes.count - cursor >= length else { return nil }
            fields.append(String(decoding: bytes[cursor..<cursor + length], as: UTF8.self))
            cursor += length
        }
        guard cursor < bytes.count else { return nil }
        let page = SavedPage(
            path: fields[0], url: fields[1], kind: bytes[cursor] == 1 ? .css : .html, charset: fields[2].isEmpty ? nil : fields[2]
        )
        return (page, cursor + 1)
    }

    private func failure(_ code: Int32) -> TransferFailure {
        fileFailure(.keepTheCrawlPages, directory, errno: code)
    }
}
