/// A URL waiting to be fetched, with what its judging decided.
struct QueuedLink: Equatable {
    /// Normalized already (`CrawlURL.text`).
    let url: String
    /// Links from a start page.
    let depth: Int
    let kind: LinkKind
    /// False for a page fetched only for its links (`-A`/`-R` refuse its name).
    let keep: Bool

    /// Its bytes in the spill file: the URL's length (4 bytes), the depth (4), the kind and
    /// keep flags (1), then the URL.
    func encoded(into bytes: inout [UInt8]) {
        let url = Array(url.utf8)
        withUnsafeBytes(of: UInt32(url.count).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: Int32(truncatingIfNeeded: depth).littleEndian) { bytes += $0 }
        bytes.append((kind == .requisite ? 1 : 0) | (keep ? 2 : 0))
        bytes += url
    }

    static let headerSize = 9

    /// The link whose bytes start at `offset` in `bytes`, and where the next one starts; nil
    /// when `bytes` does not hold the whole of it.
    static func decoded(from bytes: ArraySlice<UInt8>, at offset: Int) -> (QueuedLink, next: Int)? {
        guard bytes.endIndex - offset >= headerSize else { return nil }
        func word(_ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
        }
        let length = Int(word(offset))
        let end = offset + headerSize + length
        guard end <= bytes.endIndex else { return nil }
        let flags = bytes[offset + 8]
        let link = QueuedLink(
            url: String(decoding: bytes[(offset + headerSize)..<end], as: UTF8.self),
            depth: Int(Int32(bitPattern: word(offset + 4))), kind: flags & 1 == 1 ? .requisite : .page,
            keep: flags & 2 == 2)
        return (link, end)
    }
}
