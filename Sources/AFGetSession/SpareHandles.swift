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

    /// A handle as good as new: a spare if there is one.
    func take() -> EasyHandle {
        spares.popLast() ?? EasyHandle()
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
