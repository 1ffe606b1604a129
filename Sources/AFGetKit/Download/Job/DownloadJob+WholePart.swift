import AFGetSession

/// A part that may already hold the whole file: some servers (Apache, lighttpd) answer a
/// range starting at the end with 416 and no `Content-Range: */TOTAL`, so the 416 alone does
/// not say the file is complete. A HEAD request says it cheaply instead of a new download.
extension DownloadJob {
    /// Posts the HEAD request that asks whether the server's file is the recorded version and
    /// exactly `size` bytes long; nil when there is no validator to ask with.
    func confirmWholePart(size: Int64) -> TaskID? {
        guard validators.ifRange != nil else { return nil }
        var request = download.request
        request.method = "HEAD"
        var options = settings.transfer
        options.gateOrder = info.id
        let task = tasks.dataTask(with: request, bodyLimit: 0, options: options)
        tasks.resume(task)
        return task
    }

    /// The HEAD request's last event: it confirms a whole part when it carries the validator the
    /// download continues against, unchanged, and the same length.
    func confirmsWholePart(_ event: TaskEvent, size: Int64) -> Bool {
        guard case .completed(_, let response) = event, let ifRange = validators.ifRange else { return false }
        let head = response.head
        let carriesValidator = [head.value(of: "ETag"), head.value(of: "Last-Modified")].contains(ifRange)
        return head.status == 200 && carriesValidator && validators.change(in: head) == nil
            && head.contentLength == size
    }
}
