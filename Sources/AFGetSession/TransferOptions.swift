import AFGetSupport
/// Per-task settings that shape how a transfer is carried out.
public struct TransferOptions: Sendable, Equatable {
    public var redirects: RedirectPolicy
    /// Seconds allowed for the TCP (and TLS) connection.
    public var connectTimeout: Double
    /// Seconds without a received byte after which an attempt ends; the response headers must
    /// also be complete within this time after the request was sent.
    public var stallTimeout: Double
    /// Request and response headers are reported as `.verbose` events (secrets masked).
    public var verbose: Bool
    public var limits: ResponseLimits
    public var credentials: Credentials?
    /// A netrc file to take credentials from for the first origin (`--netrc`, `--netrc-file`).
    public var netrcFile: String?
    public var cookies: CookieOptions
    /// Ask for compressed bodies and decode them (`--compressed`); limits apply to decoded bytes.
    public var decompresses: Bool
    public var tls: TLSSettings
    /// `-x`/`--proxy` and `--noproxy`, or the proxy environment variables.
    public var proxy = ProxySettings()
    /// FTP and SSH: TLS for FTP, active mode, keys and host keys, directories an upload creates.
    public var remoteFiles = RemoteFileSettings()
    /// `--limit-rate`: bytes per second each transfer receives at most.
    public var rateLimit: Int64?
    /// Shared by the tasks of a batch that may transfer only so many at once (`-j`).
    public var gate: TransferGate?
    /// Tasks waiting at the gate start lowest first: the item's place in the list.
    public var gateOrder = 0
    /// The origin whose Retry-After holds this task while it waits at its gate.
    public var origin: String?
    /// libcurl's receive buffer: large for one stream, smaller where several share the network.
    public var receiveBufferBytes = 512 << 10
    /// A connection to this transfer alone rather than a stream on a shared HTTP/2 one: `-s N`
    /// means N connections, whatever the protocol. HTTP/1.1 where the server speaks it, else
    /// a new HTTP/2 connection for each transfer.
    public var connectionOfItsOwn = false
    /// A refused connection is transient even on first contact with its host (`--retry-refused`);
    /// otherwise only once the host has accepted a connection in this run (a server restarting).
    public var retriesRefusedConnections = false
    /// `-m`: seconds an item may take in all, its retries and their waits included.
    public var maxTime: Double?
    /// When this item's `maxTime` runs out (monotonic seconds), set as the item starts.
    public var deadline: Double?

    /// These options for an item starting now: its deadline set from `maxTime`.
    public func startingItem(at now: Double = monotonicSeconds()) -> TransferOptions {
        var options = self
        options.deadline = maxTime.map { now + $0 }
        return options
    }

    /// The failure of an item that ran out of `maxTime`.
    public var maxTimeFailure: TransferFailure {
        TransferFailure(.connection(.timeLimit(seconds: maxTime ?? 0)))
    }

    /// Whether a 401 means the credentials were refused rather than missing.
    public var sendsCredentials: Bool { credentials != nil || netrcFile != nil }

    public init(
        redirects: RedirectPolicy = RedirectPolicy(),
        connectTimeout: Double = 30,
        stallTimeout: Double = 30,
        verbose: Bool = false,
        limits: ResponseLimits = ResponseLimits(),
        credentials: Credentials? = nil,
        netrcFile: String? = nil,
        cookies: CookieOptions = CookieOptions(),
        decompresses: Bool = false,
        tls: TLSSettings = TLSSettings(),
        rateLimit: Int64? = nil,
        gate: TransferGate? = nil
    ) {
        self.gate = gate
        self.rateLimit = rateLimit
        self.tls = tls
        self.decompresses = decompresses
        self.credentials = credentials
        self.netrcFile = netrcFile
        self.cookies = cookies
        self.redirects = redirects
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.verbose = verbose
        self.limits = limits
    }
}

/// Limits afget enforces itself, whatever the libcurl build does.
public struct ResponseLimits: Sendable, Equatable {
    public var maxHeaderLineBytes = 100 * 1024
    public var maxHeaderBytes = 300 * 1024
    public var maxHeaderLines = 2000
    /// Content encodings stacked on one body (`gzip, gzip, ...`).
    public var maxContentEncodings = 5
    /// `--max-size`: bytes of body (after decoding) a response may have; nil for no limit.
    public var maxBodyBytes: Int64?

    public init(maxBodyBytes: Int64? = nil) {
        self.maxBodyBytes = maxBodyBytes
    }
}
