import AFGetRequest
import AFGetSupport
import CCurl
import CurlCore

/// How a request and a task's options become libcurl options on its easy handle: the method
/// and body, the header lines, TLS, and the identity sent to the first origin. Called on the
/// curl thread by the task's `TransferContext`, for the first hop and again after each redirect.
extension EasyHandle {
    /// The method, and the body when `upload` has one. An unknown length (standard input) is
    /// sent with chunked transfer encoding.
    func applyMethod(_ method: String, sending upload: UploadSource?) {
        set(CURLOPT_CUSTOMREQUEST, nil as String?)
        if let upload {
            if method == "POST" {
                set(CURLOPT_POST, true)
                set(CURLOPT_POSTFIELDSIZE_LARGE, offset: upload.length ?? -1)
            } else {
                set(CURLOPT_UPLOAD, true)
                set(CURLOPT_INFILESIZE_LARGE, offset: upload.length ?? -1)
                if method != "PUT" { set(CURLOPT_CUSTOMREQUEST, method) }
            }
            return
        }
        // HTTPGET also clears NOBODY and UPLOAD left from an earlier hop.
        set(CURLOPT_HTTPGET, true)
        if method == "HEAD" {
            set(CURLOPT_NOBODY, true)
        } else if method != "GET" {
            set(CURLOPT_CUSTOMREQUEST, method)
        }
    }

    /// The request's header lines. libcurl 7.88 waits for `100 Continue` before every upload
    /// body, and a server that ignores `Expect` costs a second; as curl 8 does, a body under
    /// 1 MiB is sent at once (an early refusal of it wastes little). The request's own
    /// Expect header wins. A signed request (S3) cannot say `Expect:`: libcurl 7.88 signs that
    /// line as a header though it sends none, and the store refuses the signature; it waits
    /// no time for the `100 Continue` instead.
    func applyHeaders(_ headers: [HTTPHeader], uploadLength: Int64?, signed: Bool = false) {
        var lines = headers.map(\.line)
        var waitsForContinue = 1000
        if let uploadLength, uploadLength < 1 << 20,
            !headers.contains(where: { $0.name.isSameHeaderName(as: "Expect") })
        {
            if signed { waitsForContinue = 0 } else { lines.append("Expect:") }
        }
        set(CURLOPT_EXPECT_100_TIMEOUT_MS, waitsForContinue)
        set(CURLOPT_HTTPHEADER, headers: lines)
    }

    /// Applies to every connection the handle makes, so pins hold on every redirect hop.
    func apply(_ tls: TLSSettings) {
        if let caFile = tls.caFile { set(CURLOPT_CAINFO, caFile) }
        if let caDirectory = tls.caDirectory { set(CURLOPT_CAPATH, caDirectory) }
        if tls.insecure {
            set(CURLOPT_SSL_VERIFYPEER, false)
            set(CURLOPT_SSL_VERIFYHOST, 0)
        }
        // libcurl checks pinned keys during the handshake whether or not it verifies the chain.
        let pins = tls.handshakePins
        if !pins.isEmpty { set(CURLOPT_PINNEDPUBLICKEY, pins.joined(separator: ";")) }
        if !tls.certificatePins.isEmpty { set(CURLOPT_CERTINFO, true) }
        if let certificate = tls.clientCertificate { set(CURLOPT_SSLCERT, certificate) }
        if let key = tls.clientKey { set(CURLOPT_SSLKEY, key) }
    }

    /// `--pin-cert`: the leaf certificate of a new TLS connection to `url` must be one of the
    /// pinned ones (its key was already checked in the handshake). A reused connection has no
    /// new certificate to show, and was checked when it was made.
    func certificatePinFailure(_ tls: TLSSettings, for url: CurlURL) -> TransferFailure? {
        let pins = tls.certificatePins
        guard !pins.isEmpty, url.scheme == "https",
            let pem = afc_leaf_certificate_pem(raw).map({ String(cString: $0) }),
            let leaf = CertificatePins.der(fromPEM: pem)
        else { return nil }
        guard pins.contains(leaf) else {
            return TransferFailure(.connection(.certificateNotPinned(host: url.host)))
        }
        return nil
    }

    /// Credentials, netrc and `--cookie` for the first origin; nothing of them elsewhere.
    func applyIdentity(_ options: TransferOptions, sameOrigin: Bool) {
        let credentials = sameOrigin ? options.credentials : nil
        set(CURLOPT_USERNAME, credentials?.user)
        set(CURLOPT_PASSWORD, credentials?.password)
        set(CURLOPT_HTTPAUTH, Self.authMask(credentials?.scheme ?? .basic))
        let netrc = sameOrigin && credentials == nil ? options.netrcFile : nil
        set(CURLOPT_NETRC, netrc == nil ? Int(CURL_NETRC_IGNORED.rawValue) : Int(CURL_NETRC_OPTIONAL.rawValue))
        set(CURLOPT_NETRC_FILE, netrc)
        set(CURLOPT_COOKIE, sameOrigin ? options.cookies.header : nil)
    }

    /// An S3 request's SigV4 signature, made by libcurl over the headers it sends; applied
    /// after `applyIdentity`, whose authentication mask it replaces. Nothing on another origin.
    func applySigning(_ signing: S3Signing?) {
        set(CURLOPT_AWS_SIGV4, signing?.provider)
        guard let signing else { return }
        set(CURLOPT_USERNAME, signing.accessKeyID)
        set(CURLOPT_PASSWORD, signing.secretAccessKey)
    }

    private static func authMask(_ scheme: Credentials.Scheme) -> Int {
        let basic = 1 << 0, digest = 1 << 1, digestIE = 1 << 4
        switch scheme {
        case .basic: return basic
        case .digest: return digest
        case .any: return ~digestIE
        }
    }
}
