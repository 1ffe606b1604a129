import AFGetProgress
import AFGetSupport
import Glibc
import Synchronization

/// `--report FILE`: `{"items": [...], "summary": {...}}` with every item's id (its index in
/// input order), url, path, outcome, http_status, bytes, sha256 (of the file at path, when it
/// exists), attempts and, for failures and interruptions, error {exit, class, message}
/// (DESIGN.md §8). Items are written as they end, in that order, so a list of any length costs
/// no memory; the summary closes the object at the end. A file is written under a temporary
/// name and renamed into place when complete; a device or FIFO is written in place, and
/// `/dev/stdout` or `/dev/stderr` is that stream.
public final class RunReport: Sendable {
    private let path: String
    /// Where the text goes: the temporary file, the device or FIFO, or the stream.
    private let output: OutputStream
    /// What the report has written so far. Items end on the curl thread, the summary is added
    /// on the runner's.
    private let state: PthreadMutex<State>

    private struct State {
        /// Set when `output` is a temporary file to rename over `path` at the end, until then.
        var temporary: String?
        /// `output` was opened here (not a standard stream) and is still open.
        var isOpenHere: Bool
        var pending: [UInt8] = []
        var itemsWritten = 0
        /// The first write that failed; the report is then given up, the run goes on.
        var failure: TransferFailure?

        mutating func append(_ text: String) {
            pending.append(contentsOf: text.utf8)
        }

        mutating func flush(to output: OutputStream, reporting path: String) {
            defer { pending.removeAll(keepingCapacity: true) }
            guard failure == nil, !pending.isEmpty else { return }
            if let code = output.write(bytes: pending) { failure = fileFailure(.writeTheReport, path, errno: code) }
        }
    }

    /// Checked before any transfer: a report that could not be written should not cost a batch
    /// (exit 3), and one over the input list or a download would replace what a re-run needs
    /// (exit 2).
    public static func checkDestination(_ path: String, list: String?, items: [DownloadItem]) throws(TransferFailure) {
        if let clash = BatchPlan.reportClash(path, list: list, items: items) { throw TransferFailure(.input(clash)) }
        if OutputStream.named(path) != nil { return }
        try FileChecks.writable(path, toDo: .writeTheReport)
    }

    /// Opens the report; a file cannot be opened: exit 3 before any transfer.
    public init(path: String) throws(TransferFailure) {
        self.path = path
        var state: State
        if let stream = OutputStream.named(path) {
            output = stream
            state = State(temporary: nil, isOpenHere: false)
        } else if let kind = fileKind(at: path, followingSymlinks: true), kind != S_IFREG {
            // Renaming over a device or FIFO would replace it with a plain file (`/dev/null`
            // too, when run as root), so it is written as it is.
            output = try Self.open(path, flags: O_WRONLY, reporting: path)
            state = State(temporary: nil, isOpenHere: true)
        } else {
            let temporary = path + ".aftmp"
            output = try Self.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, reporting: path)
            state = State(temporary: temporary, isOpenHere: true)
        }
        state.append("{\n  \"items\": [")
        self.state = PthreadMutex(state)
    }

    /// A report never finished (the run ended by an error) leaves no temporary file.
    deinit {
        state.withLock { state in
            if state.isOpenHere { close(output.descriptor) }
            if let temporary = state.temporary { unlink(temporary) }
        }
    }

    /// Adds an item that ended. `runExit` is the exit status an item stopped by the run carries.
    func add(_ record: ItemRecord, runExit: Int32) {
        let item = Self.itemJSON(record, runExit: runExit)
        state.withLock { state in
            state.append((state.itemsWritten == 0 ? "\n    " : ",\n    ") + item)
            state.itemsWritten += 1
            if state.pending.count >= 64 << 10 { state.flush(to: output, reporting: path) }
        }
    }

    /// Closes the report with the run's totals and puts it in place; throws (exit 3) when it
    /// could not be written.
    public func finish(_ summary: RunSummary) throws(TransferFailure) {
        var totals = JSONLine()
        summary.describe(in: &totals)
        let failure = state.withLock { state -> TransferFailure? in
            state.append((state.itemsWritten == 0 ? "" : "\n  ") + "],\n  \"summary\": \(totals.text)\n}\n")
            state.flush(to: output, reporting: path)
            if state.isOpenHere {
                state.isOpenHere = false
                if close(output.descriptor) != 0 && state.failure == nil {
                    state.failure = fileFailure(.writeTheReport, path, errno: errno)
                }
            }
            if let temporary = state.temporary, state.failure == nil {
                if rename(temporary, path) == 0 {
                    state.temporary = nil
                } else {
                    state.failure = fileFailure(.writeTheReport, path, errno: errno)
                }
            }
            return state.failure
        }
        if let failure { throw failure }
    }

    private static func open(_ file: String, flags: Int32, reporting path: String) throws(TransferFailure) -> OutputStream {
        let descriptor = Glibc.open(file, flags | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fileFailure(.writeTheReport, path, errno: errno) }
        return OutputStream(descriptor: descriptor)
    }

    private static func itemJSON(_ record: ItemRecord, runExit: Int32) -> String {
        var line = JSONLine()
        if record.info.id >= 0 { line.add("id", record.info.id) }  // a bad list line was never an item
        line.add("url", record.info.url)
        line.add("path", record.info.path)
        line.add("outcome", record.reportName)
        line.add("http_status", optional: record.httpStatus.map(Int64.init))
        let onDisk = record.info.path == "-" ? nil : fileSummary(record)
        line.add("bytes", onDisk?.bytes ?? record.bytes)
        if let sha256 = onDisk?.sha256 { line.add("sha256", sha256) } else { line.addNull("sha256") }
        line.add("attempts", record.attempts)
        if !record.sources.isEmpty { line.addRaw("sources", ServedSource.json(record.sources)) }
        if let failure = record.failure {
            var error = JSONLine()
            error.add("exit", Int(failure.exitCode))
            error.add("class", failure.failure.kind.rawValue)
            if let reason = failure.failure.reason.code {
                error.add("reason", reason)
                for field in failure.failure.reason.fields { error.add(field.name, field.value) }
            }
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
}
