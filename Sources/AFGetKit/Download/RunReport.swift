import Glibc

/// `--report FILE`: `{"items": [...], "summary": {...}}` with every item's url, path, outcome,
/// http_status, bytes, sha256 (of the file at path, when it exists), attempts and, for failures,
/// error {exit, class, message} (DESIGN.md §8). Written whole, then renamed into place.
public enum RunReport {
    public static func write(_ result: RunResult, to path: String) throws(TransferFailure) {
        let items = result.records.map { itemJSON($0, runExit: result.summary.exitCode) }.joined(separator: ",\n    ")
        let summary = result.summary
        var totals = JSONLine()
        summary.describe(in: &totals)
        let text = "{\n  \"items\": [\n    \(items)\n  ],\n  \"summary\": \(totals.text)\n}\n"
        try writeAtomically(text, to: path)
    }

    private static func itemJSON(_ record: ItemRecord, runExit: Int32) -> String {
        var line = JSONLine()
        line.add("url", record.info.url)
        line.add("path", record.info.path)
        line.add("outcome", record.outcome.rawValue)
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
        if record.outcome == .downloaded, let sha256 = record.sha256 { return (record.bytes, sha256) }
        guard record.outcome != .failed, let digest = RunningDigest.ofFile(at: record.info.path, .sha256) else { return nil }
        return (digest.bytesDigested, digest.hex())
    }

    private static func writeAtomically(_ text: String, to path: String) throws(TransferFailure) {
        let temporary = path + ".aftmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fileFailure("write the report", path, errno: errno) }
        OutputStream(descriptor: descriptor).write(text)
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw fileFailure("write the report", path, errno: errno) }
    }
}
