import CCurl

/// One libcurl easy handle. Not Sendable: a handle belongs to the thread that drives it
/// (the task manager's curl thread) from creation to cleanup.
public final class EasyHandle {
    public let raw: UnsafeMutableRawPointer
    /// Lists libcurl points into; kept until replaced or until the handle is gone.
    private var headerLists: [UInt32: HeaderList] = [:]
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    public init() {
        CurlRuntime.initialize()
        guard let handle = curl_easy_init() else {
            fatalError("curl_easy_init failed: out of memory")
        }
        raw = handle
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        check(afc_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Makes the handle as a new one for its next transfer (`curl_easy_reset`): every option
    /// back to its default, the header lists freed. What libcurl keeps is what a new handle
    /// added to the same multi handle would share anyway (its connections and DNS cache),
    /// the TLS sessions it resumed, and its cookies: so a handle that had a cookie engine
    /// must not be reset for another transfer (see `SpareHandles`).
    public func reset() {
        curl_easy_reset(raw)
        headerLists.removeAll(keepingCapacity: true)
        errorBuffer[0] = 0
        check(afc_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
    }

    // MARK: Options

    public func set(_ option: CURLoption, _ value: Int) {
        check(afc_easy_setopt_long(raw, option, value), "option \(option.rawValue)")
    }

    /// Sets an option libcurl may refuse for the handle's state rather than for a mistake of
    /// afget's: whether it took it.
    public func accepts(_ option: CURLoption, _ value: Int) -> Bool {
        afc_easy_setopt_long(raw, option, value) == CURLE_OK
    }

    public func set(_ option: CURLoption, _ value: Bool) {
        set(option, value ? 1 : 0)
    }

    public func set(_ option: CURLoption, offset value: Int64) {
        check(afc_easy_setopt_off_t(raw, option, curl_off_t(value)), "option \(option.rawValue)")
    }

    /// libcurl copies string options, so the Swift string need not outlive the call.
    public func set(_ option: CURLoption, _ value: String?) {
        check(afc_easy_setopt_string(raw, option, value), "option \(option.rawValue)")
    }

    public func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) {
        check(afc_easy_setopt_pointer(raw, option, value), "option \(option.rawValue)")
    }

    public func set(_ option: CURLoption, headers lines: [String]) {
        let list = HeaderList(lines)
        check(afc_easy_setopt_slist(raw, option, list.raw), "option \(option.rawValue)")
        headerLists[option.rawValue] = list
    }

    public func set(_ option: CURLoption, callback: afc_data_callback) {
        check(afc_easy_setopt_data_callback(raw, option, callback), "option \(option.rawValue)")
    }

    public func setProgressCallback(_ callback: afc_xferinfo_callback) {
        check(afc_easy_setopt_xferinfo_callback(raw, callback), "CURLOPT_XFERINFOFUNCTION")
        set(CURLOPT_NOPROGRESS, false)
    }

    /// Called with each socket libcurl opens for this handle, before it connects.
    public func setSocketCallback(_ callback: afc_sockopt_callback) {
        check(afc_easy_setopt_sockopt_callback(raw, callback), "CURLOPT_SOCKOPTFUNCTION")
    }

    /// Judges the server's SSH host key (with CURLOPT_SSH_KNOWNHOSTS set, which it is read against).
    public func setSSHKeyCallback(_ callback: afc_sshkey_callback) {
        check(afc_easy_setopt_sshkey_callback(raw, callback), "CURLOPT_SSH_KEYFUNCTION")
    }

    public func setDebugCallback(_ callback: afc_debug_callback) {
        check(afc_easy_setopt_debug_callback(raw, callback), "CURLOPT_DEBUGFUNCTION")
        set(CURLOPT_VERBOSE, true)
    }

    // MARK: Information

    public func info(_ info: CURLINFO) -> Int {
        var value = 0
        _ = afc_easy_getinfo_long(raw, info, &value)
        return value
    }

    public func info(offset info: CURLINFO) -> Int64 {
        var value: curl_off_t = -1
        _ = afc_easy_getinfo_off_t(raw, info, &value)
        return Int64(value)
    }

    public func info(string info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard afc_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// libcurl's detailed message for the last failure on this handle, if it wrote one.
    public var lastErrorDetail: String {
        String(cString: errorBuffer)
    }

    public func clearErrorDetail() {
        errorBuffer[0] = 0
    }

    /// Pauses or continues both directions; used to suspend and resume a running task.
    public func pause(_ paused: Bool) -> CURLcode {
        curl_easy_pause(raw, paused ? CURLPAUSE_ALL : CURLPAUSE_CONT)
    }
}

extension EasyHandle {
    /// The CURLOPT_PRIVATE pointer of a raw handle, as the multi handle reports finished transfers.
    public static func privatePointer(of raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        var value: UnsafeMutableRawPointer?
        _ = afc_easy_getinfo_pointer(raw, CURLINFO_PRIVATE, &value)
        return value
    }
}
