import AFGetRequest
import AFGetSupport
import CurlCore

/// FTP and SFTP have no response head. What libcurl learnt of the file before its first byte
/// — its size (FTP SIZE, an SFTP stat) and its modification time (MDTM, the stat's mtime) —
/// is put as an HTTP server would say it, so a download of such a file is judged by the rules
/// HTTP's are (docs/behaviour.md): a continue comes back as a 206 whose total and
/// Last-Modified must match what the resume data recorded before a byte is appended, and a
/// time less than a second older than the answer is no validator. A split's segment (`-s`) is
/// a 206 of its range whose total and Last-Modified must be the first answer's.
struct RemoteFileAnswer: Equatable {
    /// Where the body starts: the offset a continue or a split's range asked for, else 0.
    var offset: Int64
    /// Where a bounded range (a split's, `bytes=a-b`) ends, exclusive: libcurl fetches from
    /// `offset` to the file's end and the body handler stops at this end, as it stops an HTTP
    /// range. Nil: the rest of the file.
    var end: Int64? = nil
    /// Bytes libcurl delivers from `offset` (the file's size less `offset`), when the server
    /// gave the file's size.
    var remaining: Int64?
    /// The file's modification time (seconds since 1970), when the server gave it.
    var modified: Int64?
    /// When the answer came (seconds since 1970).
    var now: Int64
    /// `ftp`, `sftp`, ...: the head's version, for messages that quote it.
    var scheme: String
    /// A conditional request (`--on-exists update`) whose file is not newer: libcurl sent nothing.
    var notModified = false

    /// The request asked for a part of the file (a continue, or a split's bounded range).
    private var isPart: Bool { offset > 0 || end != nil }

    /// The answer as a response head: 200 for the whole file, 206 for a part of it (from
    /// `offset` to `end` or the file's end) with the file's size as Content-Range's total, 416
    /// (with the file's length) when nothing is left after `offset`.
    var head: ResponseHead {
        var headers: [(name: String, value: String)] = [("Date", HTTPDate.format(now))]
        if let modified { headers.append(("Last-Modified", HTTPDate.format(modified))) }
        if notModified {
            return ResponseHead(version: scheme.uppercased(), status: 304, reason: "Not Modified", headers: headers)
        }
        guard isPart, let remaining else {
            if let remaining { headers.append(("Content-Length", String(remaining))) }
            return ResponseHead(version: scheme.uppercased(), status: 200, reason: "OK", headers: headers)
        }
        let total = offset + remaining
        guard remaining > 0 else {
            headers.append(("Content-Range", "bytes */\(total)"))
            return ResponseHead(version: scheme.uppercased(), status: 416, reason: "Nothing Left", headers: headers)
        }
        let last = min(end ?? total, total) - 1
        headers.append(("Content-Range", "bytes \(offset)-\(last)/\(total)"))
        headers.append(("Content-Length", String(last - offset + 1)))
        return ResponseHead(version: scheme.uppercased(), status: 206, reason: "Partial Content", headers: headers)
    }

    /// Why this answer cannot be put as a head: a part of a file whose size the server did not
    /// give. libcurl fetched from `offset` all the same, and a part whose file's size nobody
    /// knows cannot be checked against the one recorded, so nothing of it is written: a split
    /// goes on with one connection, a continue starts over.
    var unverifiablePart: TransferFailure? {
        guard isPart, remaining == nil, !notModified else { return nil }
        return TransferFailure(.resume(.noSizeToCheck))
    }

    /// The time of a conditional request (`If-Modified-Since`), which libcurl checks against
    /// the file's (FTP's MDTM, an SFTP stat) before fetching it.
    static func modifiedSince(of request: HTTPRequest) -> Int64? {
        request.headers.last(where: { $0.name.isSameHeaderName(as: "If-Modified-Since") }).flatMap {
            HTTPDate.seconds(from: $0.value)
        }
    }

    /// The part of the file a request asks for: a continue's `Range: bytes=N-` (libcurl asks
    /// for it as FTP's REST or an SFTP seek), or a split's bounded `bytes=a-b`, asked for the
    /// same way and ended at `b` by the body handler. Nil: the whole file.
    static func requestedRange(of request: HTTPRequest) -> (offset: Int64, end: Int64?)? {
        guard let range = request.headers.last(where: { $0.name.isSameHeaderName(as: "Range") })?.value,
            range.hasPrefix("bytes=")
        else { return nil }
        let bounds = range.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let offset = Int64(bounds[0]), offset >= 0 else { return nil }
        if bounds[1].isEmpty { return offset > 0 ? (offset, nil) : nil }
        guard let last = Int64(bounds[1]), last >= offset else { return nil }
        return (offset, last + 1)
    }
}
