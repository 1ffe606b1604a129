import AFGetSupport

/// `--progress none` / `-q`: nothing but failures, which always reach stderr, and what was
/// explicitly asked for (`--verbose` lines). `afget request`, which has no progress, also says
/// its retries, so that a wait is never silent (as `curl --retry` does). A batch that said
/// anything ends with its summary line when that tells more than the failures shown: the items
/// downloaded and those skipped as already there, which nothing else mentions.
public final class QuietRenderer: ProgressRenderer {
    private let errors: OutputStream
    private let showsRetries: Bool
    private let showsSummary: Bool
    private var saidSomething = false
    private let output = PassOutput()

    public init(errors: OutputStream = .standardError, showsRetries: Bool = false, showsSummary: Bool = false) {
        self.errors = errors
        self.showsRetries = showsRetries
        self.showsSummary = showsSummary
    }

    public var interest: @Sendable (ItemEvent) -> Bool {
        { [showsRetries, showsSummary] event in
            switch event {
            case .failed, .notice, .interrupted, .sourceDropped: true
            case .retrying: showsRetries
            case .summary: showsSummary
            default: false
            }
        }
    }

    public func handle(_ event: ItemEvent) {
        switch event {
        case .failed(_, let failure):
            output.writeLine(to: errors, HumanMessages.failure(failure))
            saidSomething = true
        case .notice(let text):
            output.writeLine(to: errors, text)
        case .sourceDropped(let info, let source, let reason):
            output.writeLine(to: errors, HumanMessages.sourceDropped(info, source: source, reason: reason))
        case .retrying(let info, let attempt, let delay, let failure) where showsRetries:
            output.writeLine(to: errors, HumanMessages.retrying(info, attempt: attempt, delay: delay, failure: failure))
        case .interrupted(_, let kept):
            output.writeLine(to: errors, HumanMessages.interrupted(kept))
            saidSomething = true
        case .summary(let summary)
        where showsSummary && saidSomething && summary.downloaded + summary.skipped + summary.interrupted + summary.busy > 0:
            // The line alone: the failures it would list were each shown as they happened.
            output.writeLine(to: errors, HumanMessages.summaryLine(summary))
        default:
            break
        }
    }

    public func holdWrites() { output.hold() }

    public func releaseWrites() { output.release() }

    public func finish() { output.release() }
}
