import AFGetSupport
import CurlCore

/// One file a Metalink document describes (RFC 5854 §4.1.2): where it goes, what it must be,
/// and where it can be fetched from.
public struct MetalinkFile: Sendable {
    /// The file's name below the download directory (checked: relative, no `..`).
    public let name: String
    /// The line of its `<file>` element, for messages.
    public let line: Int
    public let size: Int64?
    /// The whole-file hashes afget can check, strongest first.
    public let hashes: [Checksum]
    public let pieces: PieceHashes?
    /// The URLs afget can fetch, most preferred first (`priority`, then document order), as
    /// given and as parsed; never empty.
    public let urls: [(text: String, parsed: CurlURL)]
}
