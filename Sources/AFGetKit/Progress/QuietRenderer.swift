/// `--progress none` / `-q`: nothing but failures, which always reach stderr, and what was
/// explicitly asked for (`--verbose` lines).
public final class QuietRenderer: ProgressRenderer {
    private let errors: OutputStream

    public init(errors: OutputStream = .standardError) {
        self.errors = errors
    }

    public func handle(_ event: ItemEvent) {
        switch event {
        case .failed(_, let failure):
            errors.writeLine(HumanMessages.failure(failure))
        case .notice(let text):
            errors.writeLine(text)
        case .interrupted(_, let dataKept):
            errors.writeLine(HumanMessages.interrupted(dataKept: dataKept))
        default:
            break
        }
    }

    public func finish() {}
}
