import AFGetRequest
import CCurl
import CurlCore
import XCTest

@testable import AFGetSession
@testable import AFGetSupport

/// The words, code and exit status of every connection and response failure, written once in
/// their groups' files, and the reasons libcurl's codes come to; without a socket.
final class ConnectionFailureTests: XCTestCase {
    func testEveryConnectionFailureHasItsWordsCodeAndExitStatus() {
        let refused = FailureReason.connection(.connectFailed(said: "Failed to connect to h port 80"))
        let rows: [(reason: ConnectionFailure, words: String, code: String, exit: Int32)] = [
            (.hostNotFound(said: "Could not resolve host: h"), "Could not resolve host: h", "host-not-found", 4),
            (.connectFailed(said: "Failed to connect to h port 80"), "Failed to connect to h port 80", "connect-failed", 4),
            (.connectTimeout(said: "Connection timed out"), "Connection timed out", "connect-timeout", 4),
            (
                .hostGivenUp(host: "http://h:80", after: refused, again: false),
                "not tried: http://h:80 was given up for this run (no connection could be made)", "host-given-up", 4
            ),
            (
                .hostGivenUp(host: "http://h:80", after: refused, again: true),
                "not tried again: http://h:80 was given up for this run (no connection could be made)", "host-given-up", 4
            ),
            (.timeLimit(seconds: 30), "took longer than --max-time (30 s)", "time-limit", 4),
            (.timeLimit(seconds: 2.5), "took longer than --max-time (2.5 s)", "time-limit", 4),
            (.stalled(waiting: .requestBody, seconds: 5), "stalled: no body byte sent for 5 s", "stalled", 4),
            (
                .stalled(waiting: .responseHeaders, seconds: 0.5), "stalled: no complete response headers within 0.5 s",
                "stalled", 4
            ),
            (.stalled(waiting: .data, seconds: 10), "stalled: no data received for 10 s", "stalled", 4),
            (
                .turnedAway, "the server turned the connection away (FTP 421: it takes no more connections for now)",
                "turned-away", 4
            ),
            (
                .sshSessionRefused(said: "Failure establishing ssh session"),
                "the SSH server closed the connection before a session began (Failure establishing ssh session)",
                "ssh-session-refused", 4
            ),
            (
                .proxyUnreachable(proxy: "p:3128", said: "Could not resolve proxy: p"),
                "cannot reach the proxy p:3128: Could not resolve proxy: p", "proxy-unreachable", 4
            ),
            (
                .proxyRefused(proxy: "p:3128", status: 403), "the proxy p:3128 did not carry the request (HTTP 403)",
                "proxy-refused", 4
            ),
            (
                .proxyCredentialsRefused(proxy: "p:3128"), "the proxy p:3128 refused the credentials in the proxy URL (HTTP 407)",
                "proxy-credentials-refused", 6
            ),
            (
                .proxyCredentialsMissing(proxy: "p:3128"),
                "the proxy p:3128 asks for credentials (HTTP 407); give them in the proxy URL: http://USER:PASSWORD@p:3128",
                "proxy-credentials-missing", 8
            ),
            (.tls(host: "h", said: "SSL certificate problem", curlCode: 60), "TLS with h: SSL certificate problem", "tls", 5),
            (
                .certificateNotPinned(host: "h"),
                "TLS with h: the server's certificate is not the pinned one (--pin-cert mismatch)",
                "certificate-not-pinned", 5
            ),
            (
                .sshHostKeyNotPinned(host: "h", fingerprint: "SHA256:abc", pinned: "SHA256:def"),
                "SSH with h: the host key SHA256:abc is not the pinned one (--ssh-host-key-sha256 SHA256:def)",
                "ssh-host-key-not-pinned", 5
            ),
            (
                .sshHostKeyChanged(host: "h", fingerprint: "SHA256:abc", knownHosts: "kh"),
                "SSH with h: the host key changed: the server shows SHA256:abc, which is not the key kh has for it; "
                    + "if the server's owner says it changed, remove the old one (ssh-keygen -R 'h')",
                "ssh-host-key-changed", 5
            ),
            (
                .sshHostKeyUnknown(host: "h", fingerprint: "SHA256:abc", knownHosts: "kh"),
                "SSH with h: unknown host key SHA256:abc (not in kh); check it with the server's owner, "
                    + "then add it (ssh-keyscan) or pin it with --ssh-host-key-sha256 abc",
                "ssh-host-key-unknown", 5
            ),
            (.curl(code: 56, said: "Recv failure", failureClass: .network), "Recv failure", "curl-error", 4),
            (.curl(code: 16, said: "HTTP/2 error", failureClass: .protocolViolation), "HTTP/2 error", "curl-error", 7),
        ]
        for row in rows { assertReason(.connection(row.reason), says: row.words, code: row.code, exits: row.exit) }
    }

    func testEveryResponseFailureHasItsWordsCodeAndExitStatus() {
        let unavailable = FailureReason.response(.httpStatus(503, phrase: "Service Unavailable"))
        let rows: [(reason: ResponseFailure, words: String, code: String, exit: Int32)] = [
            (.httpStatus(404, phrase: "Not Found"), "HTTP 404 Not Found", "http-status", 8),
            (.httpStatus(404, phrase: ""), "HTTP 404", "http-status", 8),
            (
                .credentialsRefused(status: 401, phrase: "Unauthorized"), "HTTP 401 Unauthorized: the credentials were refused",
                "credentials-refused", 6
            ),
            (
                .redirectNotFollowed(status: 302, phrase: "Found", location: "/b\u{1B}"),
                "HTTP 302 Found: redirect to /b\u{1B} not followed (--no-follow)",
                "redirect-not-followed", 7
            ),
            (
                .redirectWithoutLocation(status: 301, phrase: ""), "HTTP 301: a redirect without a Location to follow",
                "redirect-without-location", 7
            ),
            (
                .unexpectedStatus(status: 204, phrase: "No Content"), "unexpected final response HTTP 204 No Content",
                "unexpected-status", 7
            ),
            (
                .statusNotAccepted(.unexpectedStatus(status: 204, phrase: "No Content")),
                "unexpected final response HTTP 204 No Content", "status-not-accepted", 8
            ),
            (
                .typeNotAccepted(type: "", accepted: ["application/json", "text/*"]),
                "unacceptable content type \"(none)\" (accepted: application/json, text/*)", "type-not-accepted", 7
            ),
            (
                .waitTooLong(after: unavailable, seconds: 600, retryAfter: "600"),
                "HTTP 503 Service Unavailable: the server asks to retry after 600 s (Retry-After: 600)", "wait-too-long", 8
            ),
            (.tooManyRedirects(limit: 5), "too many redirects (more than 5)", "too-many-redirects", 7),
            (.redirectToScheme("ftp", target: "ftp://h/f"), "refusing redirect to ftp: ftp://h/f", "redirect-to-scheme", 7),
            (.redirectMalformed(target: "http://[x"), "redirect to a malformed URL: http://[x", "redirect-malformed", 7),
            (.redirectToHTTP(target: "http://h/f"), "refusing redirect from HTTPS to HTTP: http://h/f", "redirect-to-http", 7),
            (.notHTTP, "the reply is not an HTTP response (no status line)", "not-http", 7),
            (
                .headerLineTooLong(limit: 100 * 1024), "a response header line is longer than 100 KiB (afget's limit)",
                "header-line-too-long", 7
            ),
            (
                .headersTooLarge(lines: 100, lineBytes: 8192, bytes: 65536),
                "response headers exceed afget's limits (100 lines, 8 KiB per line, 64 KiB in all)", "headers-too-large", 7
            ),
            (.malformedContentLength("x"), "malformed Content-Length \"x\"", "unusable-length", 7),
            (
                .conflictingContentLengths(["3", "5"]), "conflicting Content-Length values: 3, 5", "unusable-length", 7
            ),
            (
                .notTheWholeFile(.noContentRange),
                "a partial answer (206) to a request for the whole file: 206 response without Content-Range",
                "not-the-whole-file", 7
            ),
            (
                .notTheWholeFile(.wholeFileWithContentRange("bytes 0-9/10")),
                "an inconsistent response: a 200 (the whole file) with Content-Range \"bytes 0-9/10\"", "not-the-whole-file", 7
            ),
            (.unknownEncoding("br"), "the body is encoded as br, which afget does not decode", "unknown-encoding", 7),
            (
                .tooManyEncodings(count: 6, limit: 5), "6 content encodings stacked (afget decodes at most 5)",
                "too-many-encodings", 7
            ),
            (.undecodable(.notValid(coding: "gzip")), "the body is not valid gzip", "undecodable", 7),
            (.undecodable(.truncated(coding: "deflate")), "the deflate stream is truncated", "undecodable", 7),
            (.undecodable(.dataAfterEnd(coding: "deflate")), "data after the end of the deflate stream", "undecodable", 7),
            (.undecodable(.cannotStart(coding: "gzip")), "cannot start decoding gzip", "undecodable", 7),
            (.tooLarge(limit: 10), "the body is larger than --max-size (10 bytes)", "too-large", 7),
            (.bodyOverLimit(limit: 10), "response body larger than 10 bytes", "body-over-limit", 7),
            (.bodyShort(received: 600, expected: 1000), "the body ended early: 600 of 1000 bytes", "body-short", 4),
            (
                .bodyShort(received: 600, expected: 1000, said: "transfer closed with 400 bytes remaining to read"),
                "transfer closed with 400 bytes remaining to read", "body-short", 4
            ),
            (
                .bodyLong(received: 1200, expected: 1000),
                "the server sent more than the file's length (1200 bytes of a 1000-byte file)", "body-long", 7
            ),
            (.rangeShort, "the server closed a range early", "range-short", 4),
            (.noSuchFile(said: "550"), "the server has no such file (550)", "no-such-file", 8),
            (.accessDenied(said: "550"), "the server refused access to the file (550)", "access-denied", 8),
            (.fileNotSent(said: "550"), "the server would not send the file (550)", "file-not-sent", 8),
            (.uploadRefused(said: "553"), "the server refused the upload (553)", "upload-refused", 8),
            (.serverDiskFull(said: "552"), "the server's disk is full (552)", "server-disk-full", 8),
            (.fileExists(said: "553"), "the server already has a file of that name (553)", "file-exists", 8),
            (.loginRefused(said: "530"), "the server refused the login (530)", "login-refused", 6),
        ]
        for row in rows { assertReason(.response(row.reason), says: row.words, code: row.code, exits: row.exit) }
    }

    /// The data beside the code, for the report's JSON.
    func testAReasonsFieldsCarryItsNumbers() {
        let rows: [(reason: FailureReason, fields: [String])] = [
            (.response(.httpStatus(404, phrase: "Not Found")), ["status=404"]),
            (.response(.statusNotAccepted(.unexpectedStatus(status: 204, phrase: ""))), ["status=204"]),
            (.response(.bodyShort(received: 1, expected: 2)), ["received=1", "expected=2"]),
            (.response(.tooManyEncodings(count: 6, limit: 5)), ["count=6", "limit=5"]),
            (
                .response(.waitTooLong(after: .response(.httpStatus(429, phrase: "")), seconds: 600, retryAfter: "600")),
                ["status=429", "wait=600"]
            ),
        ]
        for row in rows {
            XCTAssertEqual(row.reason.fields.map { "\($0.name)=\($0.value)" }, row.fields, "\(row.reason)")
        }
        XCTAssertEqual(ConnectionFailure.proxyRefused(proxy: "p", status: 403).fields.map(\.value), [403])
        XCTAssertEqual(ConnectionFailure.curl(code: 56, said: "", failureClass: .network).fields.map(\.value), [56])
    }

    /// libcurl's failures through the classifier, with libcurl's own words for each code.
    func testLibcurlsFailuresComeToTheirReasons() {
        func said(_ code: CURLcode) -> String { CurlError(code: code).message }
        let rows: [(curl: CURLcode, requestUnsent: Bool, reason: FailureReason, exit: Int32, transient: Bool)] = [
            (CURLE_COULDNT_RESOLVE_HOST, true, .connection(.hostNotFound(said: said(CURLE_COULDNT_RESOLVE_HOST))), 4, false),
            (CURLE_COULDNT_CONNECT, true, .connection(.connectFailed(said: said(CURLE_COULDNT_CONNECT))), 4, true),
            (CURLE_OPERATION_TIMEDOUT, true, .connection(.connectTimeout(said: said(CURLE_OPERATION_TIMEDOUT))), 4, true),
            (
                CURLE_OPERATION_TIMEDOUT, false,
                .connection(.curl(code: 28, said: said(CURLE_OPERATION_TIMEDOUT), failureClass: .network)), 4, true
            ),
            (
                CURLE_PEER_FAILED_VERIFICATION, true,
                .connection(.tls(host: "h", said: said(CURLE_PEER_FAILED_VERIFICATION), curlCode: 60)), 5, false
            ),
            (
                CURLE_WEIRD_SERVER_REPLY, false,
                .connection(.curl(code: 8, said: said(CURLE_WEIRD_SERVER_REPLY), failureClass: .protocolViolation)), 7, false
            ),
            (CURLE_REMOTE_FILE_NOT_FOUND, false, .response(.noSuchFile(said: said(CURLE_REMOTE_FILE_NOT_FOUND))), 8, false),
            (CURLE_REMOTE_ACCESS_DENIED, false, .response(.accessDenied(said: said(CURLE_REMOTE_ACCESS_DENIED))), 8, false),
            (CURLE_FTP_COULDNT_RETR_FILE, false, .response(.fileNotSent(said: said(CURLE_FTP_COULDNT_RETR_FILE))), 8, false),
            (CURLE_UPLOAD_FAILED, false, .response(.uploadRefused(said: said(CURLE_UPLOAD_FAILED))), 8, false),
            (CURLE_REMOTE_DISK_FULL, false, .response(.serverDiskFull(said: said(CURLE_REMOTE_DISK_FULL))), 8, false),
            (CURLE_REMOTE_FILE_EXISTS, false, .response(.fileExists(said: said(CURLE_REMOTE_FILE_EXISTS))), 8, false),
            (CURLE_LOGIN_DENIED, false, .response(.loginRefused(said: said(CURLE_LOGIN_DENIED))), 6, false),
            (CURLE_OUT_OF_MEMORY, false, .response(.headerLineTooLong(limit: ResponseLimits().maxHeaderLineBytes)), 7, false),
        ]
        for row in rows {
            let failure = CurlFailureClassifier.failure(
                for: CurlError(code: row.curl), host: "h", readingHeaders: true, limits: ResponseLimits(),
                requestUnsent: row.requestUnsent)
            XCTAssertEqual(failure.reason, row.reason, "code \(row.curl.rawValue)")
            XCTAssertEqual(failure.exitCode, row.exit, "code \(row.curl.rawValue)")
            XCTAssertEqual(failure.isTransient, row.transient, "code \(row.curl.rawValue)")
        }
    }

    /// A TLS alert after the handshake is libcurl's receive error, and TLS's failure.
    func testATLSAlertAfterTheHandshakeIsTLS() {
        let alert = "OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0"
        let failure = CurlFailureClassifier.failure(
            for: CurlError(code: CURLE_RECV_ERROR, detail: alert), host: "h", readingHeaders: true, limits: ResponseLimits())
        XCTAssertEqual(failure.reason, .connection(.tls(host: "h", said: alert, curlCode: 56)))
        XCTAssertEqual(failure.message, "TLS with h: \(alert)")
        XCTAssertFalse(failure.isTransient)
    }

    /// A body cut short keeps libcurl's words and says how short as data.
    func testAShortBodyCarriesWhatWasReceived() {
        let said = "transfer closed with 400 bytes remaining to read"
        let failure = CurlFailureClassifier.failure(
            for: CurlError(code: CURLE_PARTIAL_FILE, detail: said), host: "h", readingHeaders: false, limits: ResponseLimits(),
            body: (received: 600, expected: 1000))
        XCTAssertEqual(failure.reason, .response(.bodyShort(received: 600, expected: 1000, said: said)))
        XCTAssertEqual(failure.message, said)
        XCTAssertTrue(failure.isTransient)
    }
}
