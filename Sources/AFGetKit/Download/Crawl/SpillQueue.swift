import AFGetSupport
import Glibc

/// The crawl's frontier in arrival order (breadth first, as wget goes), holding at most
/// `inMemory` links in memory at each end: beyond that the newest are written to a file of
/// its own, unlinked at once, and read back in their turn, so that a site of a million pages
/// queues in a few megabytes (issue 54, point 7). Order is kept: the links being taken come
/// first, then those in the file, then those added since it was last written.
final class SpillQueue {
    private var head: [QueuedLink] = []
    private var headTaken = 0
    private var tail: [QueuedLink] = []
    private let inMemory: Int
    private var file: Int32 = -1
    /// Where the file's unread links start and where the next ones are written.
    private var readOffset = 0
    private var writeOffset = 0
    private var spilledCount = 0
    /// Where the file is made.
    let directory: String

    init(inMemory: Int = 4096, directory: String = SpillQueue.temporaryDirectory) {
        self.inMemory = inMemory
        self.directory = directory
    }

    deinit {
        if file >= 0 { close(file) }
    }

    /// `$TMPDIR`, else /tmp.
    static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    var count: Int { head.count - headTaken + spilledCount + tail.count }
    var isEmpty: Bool { count == 0 }

    func append(_ link: QueuedLink) throws(TransferFailure) {
        tail.append(link)
        if tail.count >= inMemory { try spill() }
    }

    func popFirst() throws(TransferFailure) -> QueuedLink? {
        if headTaken == head.count {
            head.removeAll(keepingCapacity: true)
            headTaken = 0
            if spilledCount > 0 {
                try readBack()
            } else {
                swap(&head, &tail)
            }
        }
        guard headTaken < head.count else { return nil }
        headTaken += 1
        return head[headTaken - 1]
    }

    /// The tail written at the file's end.
    private func spill() throws(TransferFailure) {
        if file < 0 { try openFile() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tail.count * 64)
        for link in tail { link.encoded(into: &bytes) }
        try write(bytes, at: writeOffset)
        writeOffset += bytes.count
        spilledCount += tail.count
        tail.removeAll(keepingCapacity: true)
    }

    /// The next links of the file into the head, about `inMemory` of them.
    private func readBack() throws(TransferFailure) {
        var chunk = [UInt8](repeating: 0, count: 256 << 10)
        var links: [QueuedLink] = []
        while links.count < inMemory && spilledCount > 0 {
            let wanted = min(chunk.count, writeOffset - readOffset)
            let got = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress, wanted, readOffset) }
            guard got > 0 else { throw failure(errno) }
            let bytes = chunk[0..<got]
            var offset = 0
            var read = 0
            while links.count < inMemory, let (link, next) = QueuedLink.decoded(from: bytes, at: offset) {
                links.append(link)
                offset = next
                read += 1
            }
            // A link longer than the chunk: read with a chunk that holds it.
            if read == 0 {
                let length = bytes.prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                chunk = [UInt8](repeating: 0, count: QueuedLink.headerSize + length)
                continue
            }
            readOffset += offset
            spilledCount -= read
        }
        head = links
        if spilledCount == 0 {
            // Everything written was read: the file starts over, its blocks given back.
            readOffset = 0
            writeOffset = 0
            _ = ftruncate(file, 0)
        }
    }

    private func openFile() throws(TransferFailure) {
        file = try unlinkedTemporaryFile(in: directory, named: "afget-crawl", action: .keepTheCrawlQueue)
    }

    private func write(_ bytes: [UInt8], at offset: Int) throws(TransferFailure) {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { pwrite(file, $0.baseAddress! + done, bytes.count - done, offset + done) }
            guard wrote > 0 else { throw failure(errno) }
            done += wrote
        }
    }

    private func failure(_ code: Int32) -> TransferFailure {
        TransferFailure(.file(.cannot(.keepTheCrawlQueue, path: directory, errno: code)))
    }
}

/// A new file in `directory`, its name removed at once: nobody else needs it, and it goes when
/// afget exits, however afget exits.
func unlinkedTemporaryFile(in directory: String, named prefix: String, action: FileAction) throws(TransferFailure) -> Int32 {
    var template = Array(joinPath(directory, prefix + "-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard made >= 0 else { throw fileFailure(action, directory, errno: errno) }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return made
}
