import AFGetSupport

/// `--progress json`: one object per line per event for scripts (DESIGN.md §8), on stdout
/// unless stdout carries data. Failures are also told to people on stderr.
public final class JSONRenderer: ProgressRenderer {
    private let stream: OutputStream
    private let errors: OutputStream
    private let output = PassOutput()

    public init(stream: OutputStream, errors: OutputStream = .standardError) {
        self.stream = stream
        self.errors = errors
    }

    public func handle(_ event: ItemEvent) {
        var line = JSONLine()
        switch event {
        case .expecting:
            return  // each item has its queued event
        case .queued(let info):
            describe(&line, "queued", info)
        case .connecting(let info, let host):
            describe(&line, "connecting", info)
            line.add("host", host)
        case .connected(let info):
            describe(&line, "connected", info)
        case .started(let info, let total, let offset):
            describe(&line, "started", info)
            if let total { line.add("total", total) }
            if let offset { line.add("offset", offset) }
        case .progress(let info, let bytes, let total, let speed):
            describe(&line, "progress", info)
            line.add("bytes", bytes)
            line.add("total", optional: total)
            line.add("speed", speed.rounded())
        case .done(let info, let bytes, _, let seconds, let sha256):
            describe(&line, "done", info)
            line.add("bytes", bytes)
            line.add("seconds", seconds)
            if let sha256 { line.add("sha256", sha256) }
        case .skipped(let info, let reason):
            describe(&line, "skipped", info)
            line.add("reason", reason.words)
        case .failed(let info, let failure):
            describe(&line, "failed", info)
            line.add("exit", Int(failure.exitCode))
            line.add("class", failure.failure.kind.rawValue)
            describe(&line, failure.failure.reason)
            line.add("message", failure.failure.message)
            output.writeLine(to: errors, HumanMessages.failure(failure))
        case .retrying(let info, let attempt, let delay, let failure):
            describe(&line, "retry", info)
            line.add("attempt", attempt + 1)
            line.add("delay", delay)
            describe(&line, failure.reason)
            line.add("error", failure.message)
        case .sourceDropped(let info, let source, let reason):
            output.writeLine(to: errors, HumanMessages.sourceDropped(info, source: source, reason: reason))
            describe(&line, "source-dropped", info)
            line.add("source", source)
            line.add("reason", reason)
        case .sourcesServed(let info, let sources):
            describe(&line, "sources", info)
            line.addRaw("sources", ServedSource.json(sources))
        case .restarting(let info, let reason):
            output.writeLine(to: errors, HumanMessages.restarting(info, because: reason))
            return
        case .notice(let text):
            output.writeLine(to: errors, text)
            return
        case .interrupted(let status, let kept):
            output.writeLine(to: errors, HumanMessages.interrupted(kept))
            line.add("event", "interrupted")
            line.add("exit", Int(status))
        case .summary(let summary):
            line.add("event", "summary")
            summary.describe(in: &line)
        }
        // For scripts, exactly: its strings are escaped, none cleaned.
        output.write(line.text + "\n", to: stream)
    }

    public func holdWrites() { output.hold() }

    public func releaseWrites() { output.release() }

    public func finish() { output.release() }

    /// A failure's code and data, for a script to act on without reading its words.
    private func describe(_ line: inout JSONLine, _ reason: FailureReason) {
        guard let code = reason.code else { return }
        line.add("reason", code)
        for field in reason.fields { line.add(field.name, field.value) }
    }

    private func describe(_ line: inout JSONLine, _ event: String, _ info: ItemInfo) {
        line.add("event", event)
        line.add("id", info.id)
        line.add("url", info.url)
        line.add("path", info.path)
    }
}

extension ServedSource {
    /// `[{"url": ..., "bytes": ..., "dropped": REASON or null}, ...]`, for JSON progress and reports.
    public static func json(_ sources: [ServedSource]) -> String {
        "["
            + sources.map { source in
                var object = JSONLine()
                object.add("url", source.url)
                object.add("bytes", source.bytes)
                if let dropped = source.dropped { object.add("dropped", dropped) } else { object.addNull("dropped") }
                return object.text
            }.joined(separator: ", ") + "]"
    }
}
