import AFGetSupport

/// The words of what a download tells people beside its progress and its ending: said once
/// here, as `HostMessages` says a host's.
enum DownloadNotices {
    /// `--on-exists update`: the server's copy is no newer than the file there, but of another
    /// length, so it is fetched again.
    static func otherSize(_ path: String, size: Int64, serverSize: Int64) -> String {
        "afget: \(path): not modified on the server, but \(serverSize) bytes there and \(size) here: fetching it again"
    }

    /// Asked to split (`-s`), the file comes over one connection, for this reason.
    static func oneConnection(_ path: String, because reason: String) -> String {
        "afget: \(path): one connection: \(reason)"
    }

    /// The same, for a reason people expect (a small file): said with `-v` only.
    static func oneConnectionAsExpected(because reason: String) -> String {
        "* one connection: \(reason)"
    }

    /// An S3 object whose ETag is no MD5 (a multipart upload's, an encrypted object's): said
    /// with `-v` only.
    static func entityTagNotMD5(_ path: String, entityTag: String?) -> String {
        "* \(path): the object's ETag \(entityTag ?? "(none)") is no MD5 of it (a multipart upload's, or encrypted): "
            + "not checked as a checksum"
    }

    /// Segments could not go on; one connection takes the rest.
    static func oneConnectionFromHere(_ path: String, because reason: String) -> String {
        "afget: \(path): one connection from here (\(reason))"
    }

    /// `-v`: how a split download begins.
    static func segments(_ count: Int, overUpTo connections: Int) -> String {
        "* \(count) segments over up to \(connections) connections"
    }

    /// A server that refused connections beyond `allowed` gets no more.
    static func connectionsCapped(_ path: String, at allowed: Int) -> String {
        "afget: \(path): the server takes \(allowed) connection\(allowed == 1 ? "" : "s") at once; going on with \(allowed)"
    }

    /// A continue answered 416 without a length, and a HEAD request showed the part is whole.
    static func wholePartConfirmed(_ path: String) -> String {
        "afget: \(path): the part already holds the whole file "
            + "(the server answered 416 without its length; a HEAD request confirmed it)"
    }

    /// A file from several sources failed its checksum: one source's bytes come again from the others.
    static func fetchingAgain(_ path: String, bytes: Int64, servedBy source: String) -> String {
        "afget: \(path): checksum mismatch; fetching the \(Formatting.bytes(bytes)) that \(source) served "
            + "from the other sources to find the source at fault"
    }

    /// The file matched its checksum once a suspect's bytes came from the others: it is dropped.
    static func culpritFound(_ path: String, _ source: String, because reason: String) -> String {
        "afget: \(path): dropping source \(source) (\(reason)); the file matches with the other sources' bytes"
    }

    /// Why a source that alone wrote a bad piece is dropped.
    static func pieceDidNotMatch(_ mismatch: PieceCheck.Mismatch) -> String {
        "piece \(mismatch.piece) did not match its \(mismatch.algorithm.rawValue) hash"
    }

    /// A bad piece that several sources wrote (none of them known to be at fault) comes again
    /// from another.
    static func pieceAgain(_ path: String, _ mismatch: PieceCheck.Mismatch) -> String {
        "afget: \(path): \(pieceDidNotMatch(mismatch)); fetching it again from a source that did not serve it"
    }
}
