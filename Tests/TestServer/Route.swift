import Foundation

/// The behaviours the test server offers, chosen by path and query:
///
/// - `/file/NAME?size=N`: N payload bytes with ETag and Last-Modified (`lastModified`), honouring
///   `Range: bytes=A-` or `bytes=A-B`, and `If-Range`. Options: `maxconn=K` (more than K
///   responses at once are answered 503, as nginx's limit_conn does), `v=K` (a changed file: other bytes, other ETag),
///   `ranges=ignore` (always 200), `ranges=wrong` (206 starting one byte late),
///   `ranges=always` (206 even when If-Range does not match), `crange=VALUE` (a 206's Content-Range
///   given as VALUE), `noetag=1`, `nolm=1`, `weak=1`
///   (a weak ETag), `etag8=1` (an ETag with a non-ASCII character), `claim=M` (announce M bytes, send N, close), `chunk=K&ms=T` (drip the body
///   in chunks of K bytes every T milliseconds; with `fastfrom=X`, bytes from X on at once),
///   `slowfrom=X` (bytes before X at once, the rest dripped), `nolength=1` (no Content-Length: chunked, length unknown until the end),
///   `cd=VALUE` (`Content-Disposition: VALUE`), `length2=V` (a second Content-Length header, V as given),
///   `lmversion=1` (each version has its own Last-Modified), `total416=none` (a 416 without
///   `Content-Range: */SIZE`), `gzip206=1` (a range answered gzip-coded, chunked),
///   `crange200=1` (a range answered as a 200 that carries Content-Range; `all`: every answer
///   carries one), `short=K` (the body ends cleanly K bytes early), `coded=C` (announced as
///   `Content-Encoding: C`), `holdafter=M` (bytes before M at once, then nothing until the test
///   says `TestHTTPServer.decide(NAME, .released)` or `.dropped`; a range from M on is not held),
///   `holdhead=1` (nothing at all, not even the headers, until the test's word). HEAD gets the headers alone.
///   `TestHTTPServer.change` overrides these per NAME.
///   If-Modified-Since at or after `lastModified` gets a 304.
/// - `/flaky/NAME?size=N&fail=K&mode=M`: the first K requests for NAME fail, the rest behave as
///   `/file`: `mode=drop` (half the body, then close), `reset` (half, then a TCP reset), `503` or
///   `429` (with `retryafter=S` as Retry-After, `ratelimit=S` as `RateLimit: "default";r=0;t=S`),
///   `slowdown` (an S3 store's 503 SlowDown error document); `after=N` cuts after N bytes instead of half;
///   `rangedonly=1` counts only ranged requests.
/// - `/status/CODE?reason=TEXT`: that status (with that reason phrase) and a small error document.
/// - `/redirect?to=URL&code=302`: a redirect (URL percent-encoded; without `to`, to itself).
/// - `/echo-headers`: the request's headers as the body, one "Name: value" per line.
/// - `/drop?size=N&after=M`: announces N bytes, sends M, then closes the connection.
/// - `/drip?size=N&chunk=K&ms=T`: N bytes in chunks of K, one every T milliseconds.
/// - `/stall?size=N&after=M`: announces N bytes, sends M, then sends nothing more.
/// - `/silent`: reads the request and never answers.
/// - `/headers?count=N&bytes=B`: N extra headers of B bytes each.
/// - `/upload` (PUT/POST): answers with the byte count and SHA-256 of the body received.
/// - `/flaky-upload/NAME?fail=K`: the first K requests are reset as their body starts; then as `/upload`.
/// - `/slow-upload?rate=B` (PUT/POST): reads the body at about B bytes a second (`rate=0`: not
///   at all), with a small receive buffer so little waits in the server's kernel, then answers
///   as `/upload`; `slowfor=N` reads only the first N bytes slowly, the rest at full speed (the
///   client's kernel may hold megabytes it has counted as sent).
/// - `/reject?status=S`: answers S at once, before reading the body, and closes.
/// - `/site/HOST/PATH`: the documented examples' web site: GET and HEAD get what the test
///   published there (`TestHTTPServer.publish`), else a 2 MB payload as `/file`; other methods
///   as `/echo`.
/// - `/echo[/...]`: the request as JSON (method, uri, path, query, headers, body, bodyLength, bodySHA256).
/// - `/auth/basic|digest?user=U&password=P`: 401 with a challenge until the credentials match.
/// - `/cookies/set?NAME=VALUE...` sets cookies; `/cookies` shows the Cookie header received.
/// - `/disposition/NAME?cd=VALUE&size=N`: N payload bytes with `Content-Disposition: VALUE`;
///   `stall=M` sends M of them, then nothing more.
/// - `/encoded?file=PATH&encoding=E`: the bytes of a file the test wrote, sent as Content-Encoding E.
public enum Route {
    /// The Last-Modified every payload carries: 2015-10-21 07:28:00 UTC.
    public static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
    public static let lastModifiedEpoch: Int = 1_445_412_480

    /// Parses HTTP dates (If-Modified-Since).
    static let httpDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()

    /// With `lmversion=1`, version K was modified K days after version 0.
    public static func lastModified(version: Int) -> String {
        httpDate.string(from: Date(timeIntervalSince1970: TimeInterval(lastModifiedEpoch + version * 86_400)))
    }

    public static func etag(size: Int, version: Int = 0, nonASCII: Bool = false) -> String {
        "\"payload-\(size)-v\(version)\(nonASCII ? "-\u{E9}" : "")\""
    }
}

/// A parsed request target: path segments and query items.
struct RequestTarget {
    let path: String
    let query: [String: String]

    init(_ uri: String) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts[0])
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = keyValue.count > 1 ? String(keyValue[1]) : ""
                query[String(keyValue[0])] = value.removingPercentEncoding ?? value
            }
        }
        self.query = query
    }

    private init(path: String, query: [String: String]) {
        self.path = path
        self.query = query
    }

    func overridden(by overrides: [String: String]) -> RequestTarget {
        RequestTarget(path: path, query: query.merging(overrides) { $1 })
    }

    func int(_ key: String, default value: Int) -> Int {
        query[key].flatMap { Int($0) } ?? value
    }
}
