import AFGetSupport
import CCurl
import CurlCore

/// Maps libcurl's result codes onto afget's failure classes.
enum CurlFailureClassifier {
    /// The failure for a libcurl error on a transfer to `host`; a TLS failure names the host.
    /// `requestUnsent`: the transfer never got as far as sending (libcurl's pre-transfer time is
    /// still 0): no connection, or none that took a byte. `ftpReply`: an FTP server's last reply
    /// code (0 for other schemes). `body`: the bytes received of an announced length.
    /// `hostAnswered`: the host answered a request in this run (a connect timeout then is
    /// worth the usual retries; on first contact it is not).
    static func failure(
        for error: CurlError, host: String, readingHeaders: Bool, hostAnswered: Bool = true,
        limits: ResponseLimits, requestUnsent: Bool = false, proxies: ProxySettings = ProxySettings(environment: [:]),
        proxy: ChosenProxy? = nil, tunnelStatus: Int = 0, ftpReply: Int = 0, body: (received: Int64, expected: Int64)? = nil
    ) -> TransferFailure {
        // libcurl's words may quote a proxy URL it could not use, password and all.
        let said = proxies.withoutCredentials(error.message)
        if let proxy,
            let failure = proxyFailure(
                said, error.curlCode, proxy: proxy, tunnelStatus: tunnelStatus, requestUnsent: requestUnsent)
        {
            return failure
        }
        // libcurl refuses a header line over its own 100 KiB buffer before afget's header
        // callback sees it, and says "Out of memory", which would read as a bug of afget's (exit 1).
        if error.curlCode == CURLE_OUT_OF_MEMORY && readingHeaders {
            return TransferFailure(.response(.headerLineTooLong(limit: limits.maxHeaderLineBytes)))
        }
        // Under TLS 1.3 a server refusing the client (no certificate, say) says so with an
        // alert after the handshake, which libcurl reports as a receive error.
        let isTLSAlert =
            (error.curlCode == CURLE_RECV_ERROR || error.curlCode == CURLE_SEND_ERROR)
            && error.message.contains("SSL routines") && error.message.contains("alert")
        // A reply without a status line: libcurl calls it HTTP/0.9 and reports it as an
        // unsupported protocol, which would read as a bad URL (exit 2). The server is at fault.
        if error.curlCode == CURLE_UNSUPPORTED_PROTOCOL && error.message.contains("HTTP/0.9") {
            return TransferFailure(.response(.notHTTP))
        }
        if let turnedAway = turnedAway(error.curlCode, ftpReply: ftpReply, requestUnsent: requestUnsent) {
            return turnedAway
        }
        if error.curlCode == CURLE_FAILED_INIT && error.message.contains("Failure establishing ssh session") {
            // libssh2 got no session: the server closed the connection before its banner, as
            // sshd does beyond MaxStartups' connections not yet logged in. libcurl reports it as
            // a failed start, which would read as afget's own bug (exit 1); it is a busy server.
            return TransferFailure(.connection(.sshSessionRefused(said: said)), transient: true, requestUnsent: true)
        }
        // A body that cannot be decoded is worthless: nothing of it is kept.
        return TransferFailure(
            reason(
                of: error.curlCode, said: said, host: host, isTLSAlert: isTLSAlert, requestUnsent: requestUnsent,
                hostAnswered: hostAnswered, body: body),
            transient: !isTLSAlert && isTransient(error.curlCode),
            discardsData: error.curlCode == CURLE_BAD_CONTENT_ENCODING, requestUnsent: requestUnsent)
    }

    /// A failure that is the proxy's: it refused the tunnel (its CONNECT status, a 407 for
    /// credentials), which asking again would only repeat, or it could not be reached, which is
    /// as transient as an origin that cannot be reached.
    private static func proxyFailure(
        _ said: String, _ code: CURLcode, proxy: ChosenProxy, tunnelStatus: Int, requestUnsent: Bool
    ) -> TransferFailure? {
        if tunnelStatus >= 300 {
            return proxy.refusal(status: tunnelStatus)
        }
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_PROXY:
            return TransferFailure(
                .connection(.proxyUnreachable(proxy: proxy.name, said: said)), transient: isTransient(code),
                requestUnsent: requestUnsent)
        default:
            return nil
        }
    }

    /// An FTP server's 421 before the login was done: libcurl (7.88) takes every 421 for an idle
    /// session's timeout ("We got a 421 - timeout") and reports CURLE_OPERATION_TIMEDOUT, but a
    /// 421 in place of the greeting is a server that takes no more connections (from this
    /// client, or at all for now), as an HTTP server's 503 is. A 421 after the login (an idle
    /// session ended) stays a timeout, and a 530 stays a refused login: a wrong password is
    /// never taken for a busy server.
    private static func turnedAway(_ code: CURLcode, ftpReply: Int, requestUnsent: Bool) -> TransferFailure? {
        guard code == CURLE_OPERATION_TIMEDOUT, ftpReply == 421, requestUnsent else { return nil }
        return TransferFailure(.connection(.turnedAway), transient: true, requestUnsent: true)
    }

    /// Failures another attempt may get past (a refused connection only where its origin has
    /// answered before: `CurlLoop.refusedOnFirstContact`). An unknown host is not one of them: libcurl
    /// cannot tell a temporary DNS failure from a name that does not exist.
    static func isTransient(_ code: CURLcode) -> Bool {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING,
            CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            true
        default:
            false
        }
    }

    /// What libcurl's code says: the host's own failures (no address, no connection; a timeout
    /// only before a byte of the request went out, as libcurl gives one code to a connect
    /// timeout and to a transfer that took too long), a body cut short of its announced
    /// length (`body`, as received and expected), an FTP or SSH server's answers, TLS with
    /// `host` (or an alert after its handshake), and libcurl's words for the rest.
    static func reason(
        of code: CURLcode, said: String, host: String = "", isTLSAlert: Bool = false, requestUnsent: Bool,
        hostAnswered: Bool = true, body: (received: Int64, expected: Int64)? = nil
    ) -> FailureReason {
        if code == CURLE_PARTIAL_FILE, let body {
            return .response(.bodyShort(received: body.received, expected: body.expected, said: said))
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST: return .connection(.hostNotFound(said: said))
        case CURLE_COULDNT_CONNECT: return .connection(.connectFailed(said: said))
        case CURLE_OPERATION_TIMEDOUT where requestUnsent:
            return .connection(hostAnswered ? .connectTimeout(said: said) : .connectTimeoutOnFirstContact(said: said))
        case CURLE_REMOTE_FILE_NOT_FOUND: return .response(.noSuchFile(said: said))
        case CURLE_REMOTE_ACCESS_DENIED: return .response(.accessDenied(said: said))
        case CURLE_FTP_COULDNT_RETR_FILE: return .response(.fileNotSent(said: said))
        case CURLE_UPLOAD_FAILED: return .response(.uploadRefused(said: said))
        case CURLE_REMOTE_DISK_FULL: return .response(.serverDiskFull(said: said))
        case CURLE_REMOTE_FILE_EXISTS: return .response(.fileExists(said: said))
        case CURLE_LOGIN_DENIED: return .response(.loginRefused(said: said))
        default:
            let kind = kind(of: code)
            if isTLSAlert || kind == .tls { return .connection(.tls(host: host, said: said, curlCode: Int32(code.rawValue))) }
            return .connection(.curl(code: Int32(code.rawValue), said: said, failureClass: kind))
        }
    }

    static func kind(of code: CURLcode) -> FailureClass {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            .usage
        case CURLE_WRITE_ERROR, CURLE_READ_ERROR, CURLE_FILE_COULDNT_READ_FILE:
            .localFile
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_USE_SSL_FAILED:
            .tls
        case CURLE_LOGIN_DENIED:
            .authentication
        case CURLE_TOO_MANY_REDIRECTS, CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM,
            CURLE_BAD_CONTENT_ENCODING, CURLE_FILESIZE_EXCEEDED, CURLE_HTTP3:
            .protocolViolation
        case CURLE_OUT_OF_MEMORY, CURLE_BAD_FUNCTION_ARGUMENT, CURLE_FAILED_INIT, CURLE_UNKNOWN_OPTION:
            .internalError
        default:
            // Connection refused or reset, DNS, timeouts, short bodies, empty replies.
            .network
        }
    }
}
