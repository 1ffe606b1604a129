import Glibc

/// Feeds a request body to libcurl's read callback, from memory or from a file.
/// Lives on the curl thread; a fresh one is made for every attempt so redirects and
/// retries re-send the body from the start.
final class UploadSource {
    private let bytes: [UInt8]
    private var descriptor: Int32 = -1
    private var offset = 0
    let length: Int64

    init(_ body: RequestBody) throws(TransferFailure) {
        switch body {
        case .none:
            bytes = []
            length = 0
        case .bytes(let data):
            bytes = data
            length = Int64(data.count)
        case .file(let path):
            bytes = []
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw fileFailure("read", path, errno: errno) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw fileFailure("read", path, errno: errno) }
            length = Int64(status.st_size)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Copies up to `capacity` bytes into `buffer`; 0 means the end of the body, -1 a read error.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        if descriptor >= 0 {
            let count = Glibc.read(descriptor, buffer, capacity)
            return count
        }
        let count = min(capacity, bytes.count - offset)
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
