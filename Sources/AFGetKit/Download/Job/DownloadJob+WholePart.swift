/// A part that may already hold the whole file: some servers (Apache, lighttpd) answer a
/// range starting at the end with 416 and no `Content-Range: */TOTAL`, so the 416 alone does
/// not say the file is complete. A HEAD request says it cheaply instead of a new download.
extension DownloadJob {
    /// Whether the server's file is the recorded version and exactly `size` bytes long: the
    /// HEAD response must carry the validator the download continues against, unchanged, and
    /// the same length.
    func confirmWholePart(size: Int64) async -> Bool {
        guard let ifRange = validators.ifRange else { return false }
        var request = download.request
        request.method = "HEAD"
        var options = settings.transfer
        options.gateOrder = info.id
        let task = manager.dataTask(with: request, bodyLimit: 0, options: options)
        manager.resume(task.id)
        for await event in task.events {
            guard case .completed(_, let response) = event else { continue }
            let head = response.head
            let carriesValidator = [head.value(of: "ETag"), head.value(of: "Last-Modified")].contains(ifRange)
            return head.status == 200 && carriesValidator && validators.change(in: head) == nil
                && head.contentLength == size
        }
        return false
    }
}
