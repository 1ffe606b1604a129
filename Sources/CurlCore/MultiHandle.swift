import CCurl

/// The one multi handle of a run. Every call except `wakeup` must come from the thread that
/// drives it; `MultiWakeup` is the part other threads may hold.
public final class MultiHandle {
    public let raw: UnsafeMutableRawPointer

    public init() {
        CurlRuntime.initialize()
        guard let multi = curl_multi_init() else {
            fatalError("curl_multi_init failed: out of memory")
        }
        raw = multi
    }

    deinit {
        curl_multi_cleanup(raw)
    }

    public func set(_ option: CURLMoption, _ value: Int) {
        _ = afc_multi_setopt_long(raw, option, value)
    }

    public func add(_ easy: EasyHandle) -> CURLMcode {
        curl_multi_add_handle(raw, easy.raw)
    }

    public func remove(_ easy: EasyHandle) {
        _ = curl_multi_remove_handle(raw, easy.raw)
    }

    /// Waits for socket activity, a wakeup, or the timeout.
    public func poll(timeoutMilliseconds: Int32) {
        _ = curl_multi_poll(raw, nil, 0, timeoutMilliseconds, nil)
    }

    /// Drives every transfer as far as it can go without blocking.
    public func perform() {
        var running: Int32 = 0
        _ = curl_multi_perform(raw, &running)
    }

    /// Finished transfers since the last call: the easy handle and its result.
    public func completedTransfers() -> [(easy: UnsafeMutableRawPointer, result: CURLcode)] {
        var finished: [(UnsafeMutableRawPointer, CURLcode)] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(raw, &queued) {
            if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle {
                finished.append((easy, afc_message_result(message)))
            }
        }
        return finished
    }

    public var wakeup: MultiWakeup { MultiWakeup(raw: raw) }
}

/// The one multi-handle call libcurl documents as safe from any thread.
/// It carries the raw pointer only to call `curl_multi_wakeup`; the owner keeps the handle alive
/// until its thread has stopped and no wakeup can be sent any more.
public struct MultiWakeup: @unchecked Sendable {
    fileprivate let raw: UnsafeMutableRawPointer

    public func callAsFunction() {
        _ = curl_multi_wakeup(raw)
    }
}
