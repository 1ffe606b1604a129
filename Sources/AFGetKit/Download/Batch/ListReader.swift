import AFGetSupport
import CurlCore
import Glibc

/// Reads a list's lines from a file or a pipe as they come, and parses them: memory holds a
/// chunk of the list, never the whole of it.
struct ListReader: Sendable {
    private let descriptor: Int32
    let name: String
    /// A pipe or terminal, where more lines may come later: an entry is complete when nothing
    /// more is there to read, so its transfer need not wait for the next line.
    private let isStream: Bool
    /// A regular file, which can be read twice (a first pass) and to its end after a stop.
    var isRegularFile: Bool { !isStream }
    private var parser: InputList.Parser
    private var buffer: [UInt8] = []
    /// Where the lines not yet parsed start in `buffer`.
    private var start = 0
    private var atEnd = false

    /// Opens `path`, or standard input for "-"; a list that cannot be opened is a usage
    /// failure naming it. `reading` says what is read of each URL.
    init(path: String, reading: CurlURL.Reading = .all) throws(ItemFailure) {
        name = path == "-" ? "stdin" : path
        descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ItemFailure(item: name, TransferFailure(.input(.listUnreadable(errno: errno))))
        }
        var status = stat()
        isStream = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT != S_IFREG
        parser = InputList.Parser(name: name, reading: reading)
    }

    /// Closes the list (standard input stays open).
    func close() {
        if descriptor != 0 { Glibc.close(descriptor) }
    }

    /// The next results of the list: at least one, or none at its end. A read error ends the
    /// list with a problem naming it.
    mutating func next() -> [InputList.Parsed] {
        var results: [InputList.Parsed] = []
        while results.isEmpty && !atEnd {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                parser.take(line: buffer[start..<newline], into: &results)
                start = newline + 1
                continue
            }
            // An entry is complete when nothing more comes for a moment (its option lines are
            // written with it), never in the middle of a line.
            if isStream && start == buffer.count && !hasInputReady(withinMilliseconds: 100) {
                parser.finishEntry(into: &results)
            }
            if !results.isEmpty { break }
            readMore(into: &results)
        }
        return results
    }

    private mutating func readMore(into results: inout [InputList.Parsed]) {
        buffer.removeSubrange(..<start)  // the part of a line left over
        start = 0
        let kept = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: 64 << 10))
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + kept, 64 << 10) }
        buffer.removeSubrange(max(kept, kept + count)...)
        if count > 0 { return }
        if count < 0 && errno == EINTR { return }
        if count < 0 {
            results.append(
                .problem(ItemFailure(item: name, TransferFailure(.input(.listUnreadable(errno: errno))))))
        }
        // The last line may have no LF.
        if !buffer.isEmpty { parser.take(line: buffer[...], into: &results) }
        buffer = []
        parser.finish(into: &results)
        atEnd = true
    }

    private func hasInputReady(withinMilliseconds timeout: Int32) -> Bool {
        var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat {
            ready = poll(&descriptors, 1, timeout)  // a signal (SIGCONT after Ctrl-Z) is not input
        } while ready < 0 && errno == EINTR
        return ready != 0
    }
}
