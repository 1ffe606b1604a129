import AFGetSupport

/// What a renderer writes while the driver answers one pass of the curl loop's events, held and
/// written once the pass is answered: a batch of small files or of 404s otherwise costs a system
/// call per line (docs/performance.md). Order is kept: a write to another stream first writes
/// what is held for the one before. Not holding, a write goes out at once.
final class PassOutput {
    private var isHolding = false
    private var held: (stream: OutputStream, text: String)?

    func hold() {
        isHolding = true
    }

    /// Writes what is held and stops holding.
    func release() {
        isHolding = false
        writeHeld()
    }

    /// Text for scripts, exactly (JSON events).
    func write(_ text: String, to stream: OutputStream) {
        guard isHolding else { return stream.write(text) }
        if let held, held.stream.descriptor != stream.descriptor { writeHeld() }
        if held == nil { held = (stream, "") }
        held?.text += text
    }

    /// Lines for people, cleaned as `OutputStream.writeLines` cleans them.
    func writeLines(to stream: OutputStream, _ lines: [String]) {
        write(OutputStream.linesForPeople(lines), to: stream)
    }

    func writeLine(to stream: OutputStream, _ line: String) {
        writeLines(to: stream, [line])
    }

    private func writeHeld() {
        guard let held else { return }
        self.held = nil
        held.stream.write(held.text)
    }
}
