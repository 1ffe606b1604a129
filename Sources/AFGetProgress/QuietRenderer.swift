import AFGetSupport

/// `--progress none` / `-q`: nothing but failures, which always reach stderr, and what was
/// explicitly asked for (`--verbose` lines). `afget request`, which has no progress, also says
/// its retries, so that a wait is never silent (as `curl --retry` does).
public final class QuietRenderer: ProgressRenderer {
    private let errors: OutputStream
    private let showsRetries: Bool

    public init(errors: OutputStream = .standardError, showsRetries: Bool = false) {
        self.errors = errors
        self.showsRetries = showsRetries
    }

    public var interest: @Sendable (ItemEvent) -> Bool {
        { [showsRetries] event in
            switch event {
            case .failed, .notice, .interrupted: true
            case .retrying: showsRetries
            default: false
            }
        }
    }

    public func handle(_ event: ItemEvent) {
        switch event {
        case .failed(_, let failure):
            errors.writeLine(HumanMessages.failure(failure))
        case .notice(let text):
            errors.writeLine(text)
        case .retrying(let info, let attempt, let delay, let reason) where showsRetries:
            errors.writeLine(HumanMessages.retrying(info, attempt: attempt, delay: delay, reason: reason))
        case .interrupted(_, let dataKept):
            errors.writeLine(HumanMessages.interrupted(dataKept: dataKept))
        default:
            break
        }
    }

    public func finish() {}
}
