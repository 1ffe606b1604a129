import Glibc

/// Feeds a request body to libcurl's read callback: bytes from memory, files read as they are
/// sent, or standard input. Lives on the curl thread; a fresh one is made for every attempt so
/// redirects and retries re-send the body from the start.
final class UploadSource {
    private enum Piece {
        case bytes([UInt8])
        /// Opened when reached; files are checked (and sized) up front.
        case file(path: String)
        case standardInput
    }

    private var pieces: [Piece]
    private var current = 0
    private var offset = 0
    private var descriptor: Int32 = -1
    /// The whole body's length; nil for standard input (sent chunked).
    let length: Int64?
    /// Body bytes handed to libcurl so far: what was sent, without chunked framing.
    private(set) var bytesRead: Int64 = 0
    /// The whole body has been handed to libcurl (it may still be on its way).
    private(set) var reachedEnd = false

    init(_ body: RequestBody) throws(TransferFailure) {
        switch body {
        case .none: pieces = []
        case .bytes(let data): pieces = [.bytes(data)]
        case .file(let path): pieces = [.file(path: path)]
        case .parts(let parts):
            pieces = parts.map { part in
                switch part {
                case .bytes(let data): .bytes(data)
                case .file(let path): .file(path: path)
                case .standardInput: .standardInput
                }
            }
        case .standardInput: pieces = [.standardInput]
        }
        var total: Int64? = 0
        for piece in pieces {
            switch piece {
            case .bytes(let data): total? += Int64(data.count)
            case .file(let path): total? += try Self.size(of: path)
            case .standardInput: total = nil
            }
        }
        length = total
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private static func size(of path: String) throws(TransferFailure) -> Int64 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw fileFailure("read", path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw TransferFailure(.usage, "\(path) is not a regular file") }
        return Int64(status.st_size)
    }

    /// Copies up to `capacity` bytes into `buffer`; 0 means the end of the body, -1 a read
    /// error (errno says which).
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while current < pieces.count {
            let count: Int
            switch pieces[current] {
            case .bytes(let data):
                count = min(capacity, data.count - offset)
                data.withUnsafeBufferPointer { source in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: count)
                }
                offset += count
            case .file(let path):
                if descriptor < 0 {
                    descriptor = open(path, O_RDONLY | O_CLOEXEC)
                    guard descriptor >= 0 else { return -1 }
                }
                count = readRetrying(descriptor, buffer, capacity)
                guard count >= 0 else { return -1 }
            case .standardInput:
                count = readRetrying(0, buffer, capacity)
                guard count >= 0 else { return -1 }
            }
            if count > 0 {
                bytesRead += Int64(count)
                return count
            }
            nextPiece()
        }
        reachedEnd = true
        return 0
    }

    private func nextPiece() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        current += 1
        offset = 0
    }

    private func readRetrying(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ capacity: Int) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer, capacity)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }
}
