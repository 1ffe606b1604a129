import AFGetRequest
import CurlCore

/// FTP and SFTP have no response head. What libcurl learnt of the file before its first byte
/// — its size (FTP SIZE, an SFTP stat) and its modification time (MDTM, the stat's mtime) —
/// is put as an HTTP server would say it, so a download of such a file is judged by the rules
/// HTTP's are (docs/behaviour.md): a continue comes back as a 206 whose total and
/// Last-Modified must match what the resume data recorded before a byte is appended, and a
/// time less than a second older than the answer is no validator.
struct RemoteFileAnswer: Equatable {
    /// Where the body starts: the offset a continue asked for, else 0.
    var offset: Int64
    /// Bytes libcurl delivers from `offset`, when the server gave the file's size.
    var remaining: Int64?
    /// The file's modification time (seconds since 1970), when the server gave it.
    var modified: Int64?
    /// When the answer came (seconds since 1970).
    var now: Int64
    /// `ftp`, `sftp`, ...: the head's version, for messages that quote it.
    var scheme: String
    /// A conditional request (`--on-exists update`) whose file is not newer: libcurl sent nothing.
    var notModified = false

    /// The answer as a response head: 200 for the whole file, 206 for the rest of it from
    /// `offset`, 416 (with the file's length) when nothing is left after `offset`.
    var head: ResponseHead {
        var headers: [(name: String, value: String)] = [("Date", HTTPDate.format(now))]
        if let modified { headers.append(("Last-Modified", HTTPDate.format(modified))) }
        if notModified {
            return ResponseHead(version: scheme.uppercased(), status: 304, reason: "Not Modified", headers: headers)
        }
        guard offset > 0, let remaining else {
            if let remaining { headers.append(("Content-Length", String(remaining))) }
            return ResponseHead(version: scheme.uppercased(), status: 200, reason: "OK", headers: headers)
        }
        let total = offset + remaining
        guard remaining > 0 else {
            headers.append(("Content-Range", "bytes */\(total)"))
            return ResponseHead(version: scheme.uppercased(), status: 416, reason: "Nothing Left", headers: headers)
        }
        headers.append(("Content-Range", "bytes \(offset)-\(total - 1)/\(total)"))
        headers.append(("Content-Length", String(remaining)))
        return ResponseHead(version: scheme.uppercased(), status: 206, reason: "Partial Content", headers: headers)
    }

    /// The time of a conditional request (`If-Modified-Since`), which libcurl checks against
    /// the file's (FTP's MDTM, an SFTP stat) before fetching it.
    static func modifiedSince(of request: HTTPRequest) -> Int64? {
        request.headers.last(where: { $0.name.isSameHeaderName(as: "If-Modified-Since") }).flatMap {
            HTTPDate.seconds(from: $0.value)
        }
    }

    /// The offset of a continue (`Range: bytes=N-`), which libcurl asks for as FTP's REST or an
    /// SFTP seek. A bounded range is not asked for: the whole file comes, as from an HTTP
    /// server that ignores ranges, and the caller's rules for a 200 apply.
    static func continueOffset(of request: HTTPRequest) -> Int64? {
        guard let range = request.headers.last(where: { $0.name.isSameHeaderName(as: "Range") })?.value,
            range.hasPrefix("bytes="), range.hasSuffix("-"),
            let offset = Int64(range.dropFirst("bytes=".count).dropLast()), offset > 0
        else { return nil }
        return offset
    }
}
