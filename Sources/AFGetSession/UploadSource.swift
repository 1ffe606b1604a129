import AFGetRequest
import AFGetSupport
import Glibc

/// Feeds a request body to libcurl's read callback: bytes from memory, files read as they are
/// sent, or standard input. Lives on the curl thread; a fresh one is made for every attempt so
/// redirects and retries re-send the body from the start.
///
/// Every piece is sent at the length announced for it. A file is sized up front: if it
/// shrinks while being sent the upload fails at once (the server would wait for the rest
/// forever), and bytes it gains are not sent (they would displace what follows it in a form,
/// or spill past the Content-Length into what the server takes for the next request).
final class UploadSource {
    private enum Piece {
        case bytes([UInt8])
        /// Opened when reached, read from `start` on.
        case file(path: String, start: Int, size: Int)
        /// `size` when the request's Content-Length says how much of it to send.
        case standardInput(size: Int?)

        var size: Int? {
            switch self {
            case .bytes(let data): data.count
            case .file(_, _, let size): size
            case .standardInput(let size): size
            }
        }
    }

    private var pieces: [Piece]
    private var current = 0
    /// Bytes of the current piece sent so far.
    private var offset = 0
    private var descriptor: Int32 = -1
    /// The whole body's length; nil for standard input sent chunked.
    let length: Int64?
    /// Body bytes handed to libcurl so far: what was sent, without chunked framing.
    private(set) var bytesRead: Int64 = 0
    /// The whole body has been handed to libcurl (it may still be on its way).
    private(set) var reachedEnd = false

    /// `headers` may announce the length (`AnnouncedLength`): the body must have it, or with
    /// standard input in it, standard input gives what the rest of the body leaves.
    /// Seen while standard input is awaited.
    private let cancellation: Cancellation

    init(_ body: RequestBody, headers: [HTTPHeader], cancellation: Cancellation) throws(TransferFailure) {
        self.cancellation = cancellation
        var pieces: [Piece] = []
        for part in Self.parts(of: body) {
            switch part {
            case .bytes(let data): pieces.append(.bytes(data))
            case .file(let path): pieces.append(.file(path: path, start: 0, size: try Self.size(of: path)))
            case .fileRange(let path, let offset, let length):
                // A file shorter than the range now would run dry mid-part: refused before sending.
                let size = try Self.size(of: path)
                guard Int64(size) >= offset + length else {
                    throw TransferFailure(.file(.shrank(path: path, sent: 0, size: offset + length)))
                }
                pieces.append(.file(path: path, start: Int(offset), size: Int(length)))
            case .standardInput: pieces.append(.standardInput(size: nil))
            }
        }
        let known = pieces.reduce(0) { $0 + ($1.size ?? 0) }
        let streamsInput = pieces.contains { $0.size == nil }
        if let announced = try AnnouncedLength.fromHeaders(headers) {
            if !streamsInput && Int64(known) != announced {
                throw TransferFailure(.input(.contentLengthMismatch(announced: announced, body: known)))
            }
            if streamsInput {
                guard announced >= known, let index = pieces.firstIndex(where: { $0.size == nil }) else {
                    throw TransferFailure(.input(.contentLengthBelowBody(announced: announced, body: known)))
                }
                pieces[index] = .standardInput(size: Int(announced) - known)
            }
            length = announced
        } else {
            length = streamsInput ? nil : Int64(known)
        }
        self.pieces = pieces
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private static func parts(of body: RequestBody) -> [BodyPart] {
        switch body {
        case .none: []
        case .bytes(let data): [.bytes(data)]
        case .file(let path): [.file(path: path)]
        case .parts(let parts): parts
        case .standardInput: [.standardInput]
        }
    }

    private static func size(of path: String) throws(TransferFailure) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { throw fileFailure(.read, path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw TransferFailure(.input(.bodyFileNotRegular(path: path))) }
        return Int(status.st_size)
    }

    /// Copies up to `capacity` bytes into `buffer`; 0 means the end of the body.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) throws(TransferFailure) -> Int {
        while current < pieces.count {
            let piece = pieces[current]
            let wanted = min(capacity, (piece.size ?? Int.max) - offset)
            var count = 0
            if wanted > 0 {
                switch piece {
                case .bytes(let data):
                    data.withUnsafeBufferPointer { source in
                        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: wanted)
                    }
                    count = wanted
                case .file(let path, let start, let size):
                    count = try readFile(path, at: start + offset, into: buffer, wanted)
                    if count == 0 {
                        throw TransferFailure(.file(.shrank(path: path, sent: Int64(offset), size: Int64(size))))
                    }
                case .standardInput(let size):
                    guard Self.waitForInput(until: cancellation) else {
                        throw TransferFailure(.stop(.whileWaitingForInput))
                    }
                    count = readRetrying(0, buffer, wanted)
                    guard count >= 0 else {
                        let code = errno
                        throw TransferFailure(.file(.unreadableRequestBody(errno: code)))
                    }
                    if count == 0, let size {
                        throw TransferFailure(.input(.standardInputShort(received: offset, announced: size)))
                    }
                }
            }
            if count > 0 {
                offset += count
                bytesRead += Int64(count)
                return count
            }
            nextPiece()
        }
        reachedEnd = true
        return 0
    }

    private func readFile(_ path: String, at position: Int, into buffer: UnsafeMutablePointer<CChar>, _ wanted: Int)
        throws(TransferFailure) -> Int
    {
        if descriptor < 0 {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw fileFailure(.read, path, errno: errno) }
        }
        let count = preadRetrying(descriptor, buffer, wanted, at: position)
        guard count >= 0 else { throw fileFailure(.read, path, errno: errno) }
        return count
    }

    private func nextPiece() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        current += 1
        offset = 0
    }

    /// Waits until standard input has something to read (or ends); false once the run stops.
    /// The wait blocks the curl thread, so it looks at the stop request a few times a second:
    /// Ctrl-C while a slow producer (`tar c dir | afget upload -`) pauses is obeyed at once.
    private static func waitForInput(until cancellation: Cancellation) -> Bool {
        var input = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        while !cancellation.isRequested {
            let ready = poll(&input, 1, 50)
            if ready > 0 || (ready < 0 && errno != EINTR) { return true }  // ready, ended, or an error read() reports
        }
        return false
    }

    private func preadRetrying(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ capacity: Int, at position: Int)
        -> Int
    {
        while true {
            let count = pread(descriptor, buffer, capacity, off_t(position))
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    private func readRetrying(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ capacity: Int) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer, capacity)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }
}
