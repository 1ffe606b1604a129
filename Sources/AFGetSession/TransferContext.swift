import AFGetRequest
import AFGetSupport
import CCurl
import CurlCore
import Glibc

/// Everything the curl thread knows about one task: its easy handle, state machine, current
/// request, the response being received and its counters. What the body is for is the task
/// owner's business: the final response's body goes to the consumer its handler gives.
/// Created, used and destroyed on the curl thread only; libcurl's callbacks reach it through
/// an unretained pointer while the task table keeps it alive.
final class TransferContext {
    let id: TaskID
    let options: TransferOptions
    private let bodyHandler: any ResponseBodyHandler
    let easy: EasyHandle
    /// Where `easy` goes when this record is gone, for another transfer.
    private let spareHandles: SpareHandles
    private let events: TaskEvents

    var machine = TaskStateMachine()
    var request: HTTPRequest
    /// Credentials and `--cookie` go to this origin only (the first request's).
    private let firstOrigin: String
    var redirectsSoFar = 0
    /// Whether the handle is currently added to the multi handle.
    var isAttached = false
    /// Whether the task holds one of its gate's places (`TransferOptions.gate`).
    var holdsGatePlace = false

    /// Whether the transfer has reached its server: connected (on a connection of its own or a
    /// reused one), its request going out or an answer arriving, or past a redirect. One that
    /// has not is still resolving the name or connecting, or has not started.
    var hasReachedServer: Bool {
        isAttached
            && (redirectsSoFar > 0 || headerBytes > 0 || easy.info(offset: CURLINFO_CONNECT_TIME_T) > 0
                || easy.info(offset: CURLINFO_PRETRANSFER_TIME_T) > 0)
    }

    /// Where the current request is in saying that it waits for its connection.
    private enum ConnectWait {
        case quiet(since: Double)
        case said
        case over
    }
    private var connectWait = ConnectWait.over
    /// Most connections take milliseconds, and one that quick needs no words; a host that
    /// does not answer would leave the screen blank for the whole connect timeout.
    static let connectingNoticeDelay = 1.0

    /// Says (once per request) that the transfer still waits for its connection after
    /// `connectingNoticeDelay`, then that it has it: asked by the loop's housekeeping.
    func tellConnectWait(at now: Double) {
        switch connectWait {
        case .quiet(let since) where now - since >= Self.connectingNoticeDelay:
            if isConnected {
                connectWait = .over
            } else {
                connectWait = .said
                emit(.connecting(id, host: connectingTo))
            }
        case .said where isConnected:
            connectWait = .over
            emit(.connected(id))
        default:
            break
        }
    }

    /// The request has its connection (a new one or a reused one), or an answer.
    private var isConnected: Bool {
        headerBytes > 0 || easy.info(offset: CURLINFO_CONNECT_TIME_T) > 0
            || easy.info(offset: CURLINFO_PRETRANSFER_TIME_T) > 0
    }

    /// What the transfer connects to: its proxy when it has one, else the URL's host and port.
    private var connectingTo: String {
        if let proxy = options.proxy.proxy(forRequestTo: request.url) { return proxy.name }
        let host = request.url.host
        return (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":\(request.url.port)"
    }

    // The response of the current hop.
    private(set) var head = ResponseHead()
    private(set) var headersComplete = false
    /// The headers that completed belong to the final response (not a redirect hop).
    private(set) var isFinalResponse = false
    private(set) var headerBytes = 0
    private var headerLines = 0
    /// Where the final response's body goes, once its handler accepted it.
    private(set) var consumer: (any BodyConsumer)?
    private(set) var progress = TransferProgress()
    private var upload: UploadSource?
    /// The consumer had all it wanted: the transfer was ended on purpose, not failed.
    private(set) var consumerHasEnough = false
    /// Set by a callback that aborts the transfer, to say why.
    private(set) var abortReason: TransferFailure?
    /// The run's stop; the callbacks look before each piece of work.
    private let cancellation: Cancellation
    /// A callback ended the transfer because the run stopped.
    private(set) var wasStopped = false
    /// Undoes the body's content codings (`--compressed`).
    private var decoder: ContentDecoder?

    /// `--limit-rate`: paused while ahead of the allowance.
    private var pacer: RatePacer?
    /// `--limit-rate` for the request body, fresh for each attempt (which sends it again).
    private var sendPacer: RatePacer?
    private(set) var isHeldBack = false

    /// Whether this attempt has stalled, sampled by the loop's housekeeping.
    private var stallWatch: StallWatch

    /// When the first request went to libcurl (redirects keep it).
    private var firstRequestAt = 0.0
    /// The origin speaks HTTP/2 alone: a connection of this transfer's own must be HTTP/2.
    var needsHTTP2 = false
    /// The run's pacer (`--limit-total-rate`), shared with every other transfer.
    private let runRate: RunRate?
    /// The loop's record of the sockets requests with a body go out on.
    private let sockets: ConnectionSockets
    /// A file on an FTP or SSH server: no HTTP head; one is put together from what libcurl
    /// learnt of the file (`TransferContext+RemoteFile.swift`).
    let isRemoteFile: Bool
    /// Where a remote file's body starts: the offset a continue or a split's range asked libcurl for.
    var remoteOffset: Int64 = 0
    /// Where a split's range of a remote file ends (exclusive), when the request is one.
    var remoteEnd: Int64?

    init(
        id: TaskID, request: HTTPRequest, body: any ResponseBodyHandler, options: TransferOptions,
        events: TaskEvents, cancellation: Cancellation, sockets: ConnectionSockets, runRate: RunRate?,
        spareHandles: SpareHandles
    ) {
        self.id = id
        self.spareHandles = spareHandles
        easy = spareHandles.take(receiveBufferBytes: options.receiveBufferBytes)
        self.sockets = sockets
        self.runRate = runRate
        self.cancellation = cancellation
        self.bodyHandler = body
        self.request = request
        self.options = options
        self.events = events
        firstOrigin = request.url.origin
        isRemoteFile = request.url.isRemoteFile
        pacer = options.rateLimit.map { RatePacer(bytesPerSecond: $0) }
        stallWatch = StallWatch(limit: options.stallTimeout, startedAt: monotonicSeconds())
    }

    /// The handle goes back only once nothing can reach this record: no callback, event or
    /// table of the loop's still names the transfer. One still in the multi handle (the loop
    /// itself ending) is not reset under libcurl's feet: it is cleaned up.
    deinit {
        spareHandles.keep(easy, unless: options.cookies.jar != nil || isAttached)
    }

    /// Sends `event` to the task's channel, or holds it for the work's pass at the turn's end.
    func emit(_ event: TaskEvent) {
        events.send(event)
    }

    /// The counters with what has reached the file so far.
    var currentProgress: TransferProgress {
        var current = progress
        current.written = consumer?.delivered ?? 0
        return current
    }

    /// The failure that ends this attempt when it has stalled (`StallWatch`), or nil.
    func stallFailure(at now: Double, judgedAt judged: Double) -> TransferFailure? {
        let sample = StallWatch.Sample(
            activity: progress.received + progress.sent + Int64(headerBytes), sent: progress.sent,
            unsent: headersComplete || progress.sent == 0 ? 0 : unsentInSocket,
            headersComplete: headersComplete,
            // Asked of libcurl only while the headers are due.
            requestSentAfter: headersComplete ? 0 : Double(easy.info(offset: CURLINFO_PRETRANSFER_TIME_T)) / 1_000_000,
            isSendingBody: isSendingBody)
        return stallWatch.failure(sample, at: now, judgedAt: judged)
    }

    /// Bytes of the request that libcurl counts as sent but that still wait in the kernel's
    /// send queue: on a slow uplink, megabytes and minutes of it (0 when it cannot tell).
    private var unsentInSocket: Int64 {
        sockets.unsentBytes(localPort: easy.info(CURLINFO_LOCAL_PORT), remotePort: easy.info(CURLINFO_PRIMARY_PORT))
    }

    /// libcurl opened a socket for this transfer's request.
    fileprivate func opened(_ socket: Int32) {
        sockets.opened(socket)
    }

    /// The curl loop did not run for `seconds` (the process was stopped, then continued):
    /// silence then is nobody's stall, and `--limit-rate` grants nothing for it.
    func discountTimeAway(_ seconds: Double, at now: Double) {
        stallWatch.restartClocks(at: now)
        pacer?.skip(seconds)
        sendPacer?.skip(seconds)
    }

    // MARK: Setting up an attempt

    /// Sets the handle up for the current request: called for the first hop and after each redirect.
    func prepareAttempt() throws(TransferFailure) {
        head = ResponseHead()
        headersComplete = false
        isFinalResponse = false
        headerBytes = 0
        headerLines = 0
        consumer = nil
        abortReason = nil
        decoder = nil
        progress = TransferProgress()
        if firstRequestAt == 0 { firstRequestAt = monotonicSeconds() }
        connectWait = .quiet(since: monotonicSeconds())
        progress.startedAt = firstRequestAt
        easy.clearErrorDetail()

        let context = Unmanaged.passUnretained(self).toOpaque()
        if !isConfigured {
            configureOnce(context)
            isConfigured = true
        }
        easy.set(CURLOPT_URL, request.url.absoluteString)
        // Over TLS, ALPN tells at once whether a connection multiplexes (HTTP/2), so waiting to
        // share it is cheap. Over plain HTTP a waiting transfer would sit idle until the busy
        // HTTP/1.1 connection is free, so there each transfer gets a connection of its own.
        easy.set(CURLOPT_PIPEWAIT, request.url.scheme == "https" && !options.connectionOfItsOwn)
        if options.connectionOfItsOwn {
            // HTTP/1.1 keeps a connection to one transfer at a time and lets the next segment
            // reuse it once idle; a server that speaks HTTP/2 alone gets a new HTTP/2 connection
            // per transfer instead, closed after it, so there are never more than N.
            easy.set(CURLOPT_HTTP_VERSION, needsHTTP2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1)
            easy.set(CURLOPT_FRESH_CONNECT, needsHTTP2)
            easy.set(CURLOPT_FORBID_REUSE, needsHTTP2)
        }
        upload = nil
        sendPacer = nil
        if request.body != .none {
            upload = try UploadSource(request.body, headers: request.headers, cancellation: cancellation)
            progress.expectedToSend = upload?.length
            sendPacer = options.rateLimit.map { RatePacer(bytesPerSecond: $0) }
        }
        easy.applyMethod(request.method, sending: upload)
        easy.applyHeaders(
            headersToSend, uploadLength: upload?.length, signed: request.url.origin == firstOrigin && request.signing != nil)
        easy.applyIdentity(options, sameOrigin: request.url.origin == firstOrigin)
        easy.applySigning(request.url.origin == firstOrigin ? request.signing : nil)
        if isRemoteFile { prepareRemoteAttempt() }
        if let deadline = options.deadline {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { throw options.maxTimeFailure }
            easy.set(CURLOPT_TIMEOUT_MS, max(1, Int(left * 1000)))
        }
        stallWatch = StallWatch(limit: options.stallTimeout, startedAt: monotonicSeconds())
    }

    private var isConfigured = false

    /// The request's headers, offering the codings afget decodes with `--compressed` unless
    /// the request names its own (a continue asks for the representation it holds), and those
    /// an S3 signature needs on its origin: added here, not kept in the request, so resume data
    /// never records them as the user's.
    private var headersToSend: [HTTPHeader] {
        let signed = request.url.origin == firstOrigin ? request.signing?.headers ?? [] : []
        guard options.decompresses, !request.headers.contains(where: { $0.name.isSameHeaderName(as: "Accept-Encoding") })
        else { return request.headers + signed }
        return request.headers + signed
            + [HTTPHeader(name: "Accept-Encoding", value: ContentDecoder.acceptedCodings, scope: .everyHop)]
    }

    private func configureOnce(_ context: UnsafeMutableRawPointer) {
        easy.set(CURLOPT_PRIVATE, pointer: context)
        easy.set(CURLOPT_NOSIGNAL, true)
        // Redirects are followed by the task manager, under afget's own rules (RedirectPolicy).
        easy.set(CURLOPT_FOLLOWLOCATION, false)
        easy.set(CURLOPT_PROTOCOLS_STR, isRemoteFile ? request.url.scheme : "http,https")
        easy.set(CURLOPT_USERAGENT, "afget/\(AFGetVersion.current)")
        easy.set(CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000))
        easy.set(CURLOPT_WRITEFUNCTION, callback: receiveBodyCallback)
        easy.set(CURLOPT_WRITEDATA, pointer: context)
        easy.set(CURLOPT_HEADERFUNCTION, callback: receiveHeaderCallback)
        easy.set(CURLOPT_HEADERDATA, pointer: context)
        if request.body != .none {
            easy.set(CURLOPT_READFUNCTION, callback: sendBodyCallback)
            easy.set(CURLOPT_READDATA, pointer: context)
            easy.setProgressCallback(uploadProgressCallback)
            easy.set(CURLOPT_XFERINFODATA, pointer: context)
            // What of the body still waits in the kernel is read from the socket (stalls).
            easy.setSocketCallback(socketOpenedCallback)
            easy.set(CURLOPT_SOCKOPTDATA, pointer: context)
        }
        if isRemoteFile { configureRemoteFile(context) }
        if options.verbose {
            easy.setDebugCallback(verboseCallback)
            easy.set(CURLOPT_DEBUGDATA, pointer: context)
        }
        easy.apply(options.tls)
        options.proxy.apply(to: easy)
        // Bodies reach afget as sent; ContentDecoder undoes their codings when asked to.
        easy.set(CURLOPT_HTTP_CONTENT_DECODING, false)
        if let jar = options.cookies.jar {
            // libcurl's cookie engine keeps cookies by domain and path across every hop.
            easy.set(CURLOPT_COOKIEFILE, jar)
            easy.set(CURLOPT_COOKIEJAR, jar)
        }
    }

    /// Writes the cookie jar now: libcurl would write it only when the handle is cleaned up,
    /// which may come after the process has reported the result and exited.
    func saveCookies() {
        if options.cookies.jar != nil {
            easy.set(CURLOPT_COOKIELIST, "FLUSH")
        }
    }

    // MARK: Callbacks (curl thread)

    func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        // FTP's replies come this way too: they are no HTTP head (`-v` shows them).
        if isRemoteFile { return count }
        headerBytes += count
        headerLines += 1
        let limits = options.limits
        guard count <= limits.maxHeaderLineBytes, headerBytes <= limits.maxHeaderBytes,
            headerLines <= limits.maxHeaderLines
        else {
            abortReason = TransferFailure(
                .response(
                    .headersTooLarge(
                        lines: limits.maxHeaderLines, lineBytes: limits.maxHeaderLineBytes, bytes: limits.maxHeaderBytes)))
            return 0
        }
        var length = count
        while length > 0 && (data[length - 1] == 0x0A || data[length - 1] == 0x0D) { length -= 1 }
        let line = HeaderLine(UnsafeRawBufferPointer(start: data, count: length))
        if headersComplete {
            // A status line after a complete response: libcurl is answering an authentication
            // challenge on the same transfer, and the response before it is not the final one.
            guard case .status = line else { return count }  // trailers after a chunked body
            startNextResponse()
        }

        switch line {
        case .status(let version, let code, let reason):
            head = ResponseHead(version: version, status: code, reason: reason)
            head.reserveCapacity(16)  // one allocation for a usual response's fields
        case .end:
            // The end of a header block; interim (1xx) responses are followed by the real one.
            if !(100..<200).contains(head.status) {
                headersComplete = true
                guard headersDidComplete() else { return 0 }
            }
        case .continuation(let more):
            head.continueLastValue(with: more)
        case .field(let name, let value):
            head.add(name: name, value: value)
        case .other:
            break
        }
        return count
    }

    /// Takes `synthesized` as the final response's head, for a transfer whose protocol has
    /// none; false: the transfer is to be aborted (`abortReason` says why).
    func completeHeaders(as synthesized: ResponseHead) -> Bool {
        head = synthesized
        headersComplete = true
        return headersDidComplete()
    }

    /// Ends the transfer for `failure` at the callback's return.
    func abort(because failure: TransferFailure) {
        if abortReason == nil { abortReason = failure }
    }

    private func startNextResponse() {
        headersComplete = false
        isFinalResponse = false
        consumer = nil
        decoder = nil
        progress.received = 0
    }

    /// Decides what becomes of the body; false aborts the transfer (`abortReason` says why).
    private func headersDidComplete() -> Bool {
        if let failure = easy.certificatePinFailure(options.tls, for: request.url) {
            abortReason = failure
            return false
        }
        // A plain-HTTP request's 407 is the proxy's answer, not the origin's: never a response
        // to keep or print. (A tunnel's comes with the CONNECT, which the callback never sees.)
        if head.status == 407, request.url.scheme == "http", let proxy = options.proxy.proxy(forRequestTo: request.url),
            proxy.speaksHTTP
        {
            abortReason = proxy.refusal(status: 407)
            return false
        }
        if head.redirectLocation != nil && options.redirects.follow {
            return true  // a hop: its body is discarded and the next request follows
        }
        isFinalResponse = true
        if let failure = limitFailure() {
            abortReason = failure
            return false
        }
        // A decoded body's length is not the announced (encoded) one.
        progress.expected = request.method == "HEAD" || (options.decompresses && head.isEncoded) ? nil : head.contentLength
        switch bodyHandler.accept(head, announcedLength: progress.expected) {
        case .take(let taker):
            consumer = taker
        case .pass:
            consumer = nil
        case .refuse(let failure):
            abortReason = failure
            return false
        }
        if consumer != nil, let failure = startDecoding() {
            abortReason = failure
            return false
        }
        emit(.started(id, head))
        return true
    }

    /// With `--compressed`, a coded body is decoded as it arrives; a coding afget cannot undo
    /// is refused rather than written as if it were the file.
    private func startDecoding() -> TransferFailure? {
        guard options.decompresses, head.isEncoded, request.method != "HEAD" else { return nil }
        decoder = ContentDecoder(codings: head.contentEncodings)
        guard decoder == nil, let coding = ContentDecoder.unsupported(head.contentEncodings) else { return nil }
        return TransferFailure(.response(.unknownEncoding(coding)), discardsData: true)
    }

    /// Why a body that libcurl received in full is still not whole: its coded stream ended early.
    func bodyEndFailure() -> TransferFailure? {
        guard consumer != nil, let problem = decoder?.finish() else { return nil }
        return TransferFailure(.response(.undecodable(problem)), discardsData: true)
    }

    /// A Content-Length that cannot be used, too many stacked content encodings, or a body
    /// announced larger than `--max-size`.
    private func limitFailure() -> TransferFailure? {
        if let problem = head.contentLengthProblem {
            return TransferFailure(.response(problem), discardsData: true)
        }
        let limits = options.limits
        let encodings = head.contentEncodings
        if encodings.count > limits.maxContentEncodings {
            return TransferFailure(
                .response(.tooManyEncodings(count: encodings.count, limit: limits.maxContentEncodings)), discardsData: true)
        }
        if let max = limits.maxBodyBytes, let length = head.contentLength, !head.isEncoded || !options.decompresses,
            length > max, request.method != "HEAD"
        {
            return Self.overMaxSize(max)
        }
        return nil
    }

    private static func overMaxSize(_ max: Int64) -> TransferFailure {
        TransferFailure(.response(.tooLarge(limit: max)), discardsData: true)
    }

    func receiveBody(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        // A remote file's head is judged before its first byte is written.
        if !headersComplete && isRemoteFile && !startRemoteBody() { return 0 }
        guard consumer != nil else { return count }
        if pacer != nil || runRate != nil, isAheadOfReceiving(now: monotonicSeconds()) {
            // Not taken: libcurl keeps these bytes and hands them over again once unpaused.
            isHeldBack = true
            return Int(CURL_WRITEFUNC_PAUSE)
        }
        let received = UnsafeRawBufferPointer(start: data, count: count)
        guard let decoder else {
            // A consumer that had enough of this piece ends the transfer: a short count does.
            return take(received) || consumerHasEnough ? takenOfLastPiece : 0
        }
        if let problem = decoder.decode(received, deliver: take) {
            abortReason = TransferFailure(.response(.undecodable(problem)), discardsData: true)
        }
        return abortReason == nil && !wasStopped && !consumerHasEnough ? count : 0
    }

    /// How much of the last piece `take` handed the consumer took.
    private var takenOfLastPiece = 0

    /// Whether the run stopped; once seen, the transfer ends.
    private var isStopped: Bool {
        if cancellation.isRequested { wasStopped = true }
        return wasStopped
    }

    /// Hands a piece of the (decoded) body to the consumer; false ends the transfer
    /// (`abortReason` says why, or the consumer has enough).
    private func take(_ piece: UnsafeRawBufferPointer) -> Bool {
        takenOfLastPiece = 0
        guard !isStopped, !consumerHasEnough, let consumer else { return false }
        guard piece.count > 0 else { return true }  // libcurl's call for an empty body
        // Counted after decoding, so a decompression bomb stops at the limit.
        if let max = options.limits.maxBodyBytes, progress.received + Int64(piece.count) > max {
            abortReason = Self.overMaxSize(max)
            return false
        }
        switch consumer.take(piece) {
        case .more:
            takenOfLastPiece = piece.count
        case .enough(let taken):
            takenOfLastPiece = taken
            consumerHasEnough = true
        case .refuse(let failure):
            abortReason = failure
            return false
        }
        progress.received += Int64(takenOfLastPiece)
        runRate?.add(takenOfLastPiece)
        return !consumerHasEnough
    }

    /// Unpauses a transfer held back by `--limit-rate` once the allowance has caught up; the
    /// held bytes are delivered again from within this call. Returns `curl_easy_pause`'s
    /// result: not CURLE_OK when the write callback ended the transfer in those bytes (the
    /// curl loop then ends it, `CurlLoop.endIfUnpauseEnded`).
    func releaseIfAllowed(now: Double) -> CURLcode {
        // Held on purpose is not a stall, however long the run's allowance keeps it waiting.
        if isHeldBack { stallWatch.excuse(at: now) }
        guard isHeldBack, !isAheadOfReceiving(now: now), sendPacer?.isAhead(received: upload?.bytesRead ?? 0, now: now) != true
        else { return CURLE_OK }
        isHeldBack = false
        stallWatch.excuse(at: now)
        return easy.pause(false)
    }

    /// Ahead of this transfer's `--limit-rate` or the run's `--limit-total-rate`.
    private func isAheadOfReceiving(now: Double) -> Bool {
        pacer?.isAhead(received: progress.received, now: now) == true || runRate?.isAhead(now: now) == true
    }

    func sendBody(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        guard let upload else { return 0 }
        guard !isStopped else { return Int(CURL_READFUNC_ABORT) }
        if sendPacer?.isAhead(received: upload.bytesRead, now: monotonicSeconds()) == true {
            // Paused until the allowance catches up (`releaseIfAllowed`), as for received bytes.
            isHeldBack = true
            return Int(CURL_READFUNC_PAUSE)
        }
        do {
            return try upload.read(into: buffer, capacity: capacity)
        } catch {
            if !isStopped { abortReason = error }
            return Int(CURL_READFUNC_ABORT)
        }
    }

    /// Whether part of the request body is still to be sent.
    var isSendingBody: Bool {
        guard let upload else { return false }
        return upload.length.map { progress.sent < $0 } ?? !upload.reachedEnd
    }

    /// libcurl counts a chunked body's framing as sent ("hello" went as 16 bytes): the body's
    /// own bytes are what a person sent.
    func uploadProgress(sent: Int64) {
        progress.sent = min(sent, upload?.bytesRead ?? sent)
    }

    func verbose(_ type: curl_infotype, _ data: UnsafeMutablePointer<CChar>, _ count: Int) {
        let prefix: String
        switch type {
        case CURLINFO_TEXT: prefix = "* "
        case CURLINFO_HEADER_IN: prefix = "< "
        case CURLINFO_HEADER_OUT: prefix = "> "
        default: return
        }
        var text = HeaderLine.text(UnsafeRawBufferPointer(start: data, count: count))
        if consumerHasEnough && text.hasPrefix("Failure writing output") {
            text = "the body's taker has all it wants; the rest of this response is not read"  // stopped on purpose
        }
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            // libcurl's own notes may quote a proxy URL with its password (one from the environment).
            let shown =
                type == CURLINFO_TEXT
                ? options.proxy.withoutCredentials(String(line))
                : HeaderMasking.mask(String(line), outgoing: type == CURLINFO_HEADER_OUT)
            emit(.verbose(id, prefix + shown))
        }
    }

    /// The outcome of a finished exchange, for the `.completed` event.
    func response() -> TaskResponse {
        TaskResponse(
            head: head,
            finalURL: request.url.absoluteString,
            progress: currentProgress,
            body: consumer?.collectedBody() ?? [])
    }
}

// libcurl calls these C functions; each turns the user pointer back into its context.

private func context(_ pointer: UnsafeMutableRawPointer?) -> TransferContext {
    Unmanaged<TransferContext>.fromOpaque(pointer!).takeUnretainedValue()
}

private let receiveBodyCallback: afc_data_callback = { data, size, count, user in
    context(user).receiveBody(data!, size * count)
}

private let receiveHeaderCallback: afc_data_callback = { data, size, count, user in
    context(user).receiveHeader(data!, size * count)
}

private let sendBodyCallback: afc_data_callback = { buffer, size, count, user in
    context(user).sendBody(into: buffer!, capacity: size * count)
}

private let uploadProgressCallback: afc_xferinfo_callback = { user, _, _, _, sent in
    context(user).uploadProgress(sent: Int64(sent))
    return 0
}

private let socketOpenedCallback: afc_sockopt_callback = { user, socket, _ in
    context(user).opened(socket)
    return CURL_SOCKOPT_OK
}

private let verboseCallback: afc_debug_callback = { _, type, data, size, user in
    context(user).verbose(type, data!, size)
    return 0
}
