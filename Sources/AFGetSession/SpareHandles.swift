import CCurl
import CurlCore

/// Easy handles of finished transfers, reset and kept for the next ones: a new handle costs
/// libcurl's setup and some forty allocations, which on a list of small files or 404s is a
/// good part of an item's cost (docs/performance.md). Curl thread only, as the handles are.
final class SpareHandles {
    private var spares: [EasyHandle] = []
    /// More than the transfers a run keeps going at once is memory for nothing.
    private let limit: Int

    init(limit: Int = 64) {
        self.limit = limit
    }

    /// A handle as good as new, its receive buffer sized: a spare if there is one that takes
    /// the size. libcurl (7.88) frees a transfer's buffer when it ends unless other transfers
    /// still share its connection (HTTP/2), and refuses to size a buffer it holds; such a
    /// spare is let go rather than read with the default 16 KiB.
    func take(receiveBufferBytes: Int) -> EasyHandle {
        while let spare = spares.popLast() {
            if spare.accepts(CURLOPT_BUFFERSIZE, receiveBufferBytes) { return spare }
        }
        let handle = EasyHandle()
        handle.set(CURLOPT_BUFFERSIZE, receiveBufferBytes)
        return handle
    }

    /// Keeps the handle of a transfer that has ended, unless `mustGo`: it had a cookie engine
    /// (a cookie jar), whose cookies `curl_easy_reset` would keep for the next transfer, or it
    /// is still in the multi handle.
    func keep(_ handle: EasyHandle, unless mustGo: Bool) {
        guard !mustGo, spares.count < limit else { return }
        handle.reset()
        spares.append(handle)
    }
}
