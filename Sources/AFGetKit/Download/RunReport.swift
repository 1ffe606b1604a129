import AFGetSupport
import Glibc

/// `--report FILE`: `{"items": [...], "summary": {...}}` with every item's url, path, outcome,
/// http_status, bytes, sha256 (of the file at path, when it exists), attempts and, for failures,
/// error {exit, class, message} (DESIGN.md §8). A file is written whole, then renamed into
/// place; a device or FIFO is written in place, and `/dev/stdout` or `/dev/stderr` is that stream.
public enum RunReport {
    /// Checked before any transfer: a report that could not be written should not cost a batch
    /// (exit 3), and one over the input list or a download would replace what a re-run needs
    /// (exit 2).
    public static func checkDestination(_ path: String, list: String?, items: [DownloadItem]) throws(TransferFailure) {
        if let clash = BatchPlan.reportClash(path, list: list, items: items) { throw TransferFailure(.usage, clash) }
        if OutputStream.named(path) != nil { return }
        try FileChecks.writable(path, toDo: "write the report")
    }

    public static func write(_ result: RunResult, to path: String) throws(TransferFailure) {
        let items = result.records.map { itemJSON($0, runExit: result.summary.exitCode) }.joined(separator: ",\n    ")
        let summary = result.summary
        var totals = JSONLine()
        summary.describe(in: &totals)
        let text = "{\n  \"items\": [\n    \(items)\n  ],\n  \"summary\": \(totals.text)\n}\n"
        try write(text, to: path)
    }

    private static func itemJSON(_ record: ItemRecord, runExit: Int32) -> String {
        var line = JSONLine()
        line.add("url", record.info.url)
        line.add("path", record.info.path)
        line.add("outcome", record.outcome.reportName)
        line.add("http_status", optional: record.httpStatus.map(Int64.init))
        let onDisk = record.info.path == "-" ? nil : fileSummary(record)
        line.add("bytes", onDisk?.bytes ?? record.bytes)
        if let sha256 = onDisk?.sha256 { line.add("sha256", sha256) } else { line.addNull("sha256") }
        line.add("attempts", record.attempts)
        if let failure = record.failure {
            var error = JSONLine()
            error.add("exit", Int(failure.exitCode))
            error.add("class", failure.failure.kind.rawValue)
            error.add("message", failure.failure.message)
            line.addRaw("error", error.text)
        } else if let stop = record.stoppedEarly {
            var error = JSONLine()
            error.add("exit", Int(runExit))
            error.add("class", stop.cause.rawValue)
            error.add("message", stop.message)
            line.addRaw("error", error.text)
        }
        return line.text
    }

    /// Size and SHA-256 of the file at the record's path: from the download when it just
    /// finished, else read from disk (a skipped file).
    private static func fileSummary(_ record: ItemRecord) -> (bytes: Int64, sha256: String)? {
        if case .done = record.outcome, let sha256 = record.sha256 { return (record.bytes, sha256) }
        switch record.outcome {
        case .done, .skipped: break
        case .failed, .stopped: return nil
        }
        guard let digest = RunningDigest.ofFile(at: record.info.path, .sha256) else { return nil }
        return (digest.bytesDigested, digest.hex())
    }

    /// Renaming over a device or FIFO would replace it with a plain file (`/dev/null` too,
    /// when run as root), so anything that exists and is not a regular file is written as it is.
    /// `/dev/stdout` is afget's own standard output even when that is a file (`OutputStream.named`).
    private static func write(_ text: String, to path: String) throws(TransferFailure) {
        if let stream = OutputStream.named(path) {
            if let code = stream.write(bytes: Array(text.utf8)) { throw fileFailure("write the report", path, errno: code) }
            return
        }
        if let kind = fileKind(at: path, followingSymlinks: true), kind != S_IFREG {
            try write(text, into: path, flags: O_WRONLY, reporting: path)
            return
        }
        let temporary = path + ".aftmp"
        do {
            try write(text, into: temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, reporting: path)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw fileFailure("write the report", path, errno: code)
        }
    }

    /// Writes all of `text` into `file` opened with `flags`; a failure to open, write or close
    /// names the report (`path`) and the cause.
    private static func write(_ text: String, into file: String, flags: Int32, reporting path: String) throws(TransferFailure) {
        let descriptor = open(file, flags | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fileFailure("write the report", path, errno: errno) }
        let writeError = OutputStream(descriptor: descriptor).write(bytes: Array(text.utf8))
        let closeError = close(descriptor) == 0 ? nil : errno
        if let code = writeError ?? closeError { throw fileFailure("write the report", path, errno: code) }
    }
}
