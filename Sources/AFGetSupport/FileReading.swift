import Glibc

/// Reads a descriptor to its end in chunks of 64 KiB, handing each to `body`; returns the errno
/// of a failed read, or nil. `body` returns false to stop early.
func readChunks(_ descriptor: Int32, _ body: (UnsafeRawPointer, Int) -> Bool) -> Int32? {
    let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { chunk.deallocate() }
    while true {
        let count = read(descriptor, chunk, 1 << 16)
        if count < 0 && errno == EINTR { continue }
        if count < 0 { return errno }
        if count == 0 || !body(chunk, count) { return nil }
    }
}

/// All bytes of a descriptor, or the errno of a failed read; stops past `limit` bytes.
package func readAll(_ descriptor: Int32, limit: Int = .max) -> Result<[UInt8], ReadError> {
    var bytes: [UInt8] = []
    let failure = readChunks(descriptor) { data, count in
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        return bytes.count <= limit
    }
    if let failure { return .failure(.system(failure)) }
    return bytes.count > limit ? .failure(.tooLarge) : .success(bytes)
}

package enum ReadError: Error {
    case system(Int32)
    case tooLarge
}
