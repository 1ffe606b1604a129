import AFGetSession

/// `--on-exists update` keeps a file only when the server's copy is no newer and has its
/// length: a file another tool left short has the time of its writing, newer than the server's,
/// and If-Modified-Since alone would keep it. A 304 says nothing reliable of the length (servers
/// send `Content-Length: 0`), so a HEAD request asks for it after one; a changed file costs no
/// more than before, an unchanged one a HEAD more.
extension DownloadJob {
    /// Posts the HEAD request for the length of the server's copy.
    func askServersLength() -> TaskID {
        var request = download.request
        request.method = "HEAD"
        request.headers.removeAll { $0.name.isSameHeaderName(as: "If-Modified-Since") }
        var options = settings.transfer
        options.gateOrder = info.id
        let task = tasks.dataTask(with: request, bodyLimit: 0, options: options)
        tasks.resume(task)
        return task
    }

    /// The HEAD request's last event: the length the server gave, nil when it gave none (or
    /// the request failed: the time alone then decides, as before).
    func serversLength(_ event: TaskEvent) -> Int64? {
        guard case .completed(_, let response) = event, response.head.isSuccess else { return nil }
        return response.head.contentLength
    }
}
