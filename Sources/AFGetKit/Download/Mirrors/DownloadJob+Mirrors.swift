import AFGetSupport

/// A single connection's sources (without `-s`, or once segments fell back): a source that
/// fails while others are left is dropped, and the next one goes on from the bytes held.
extension DownloadJob {
    /// Why `action`, after an attempt of `source`, means dropping it: a failure of the source's
    /// while another source is left, or an answer of another file than the one the first source
    /// fixed (a mirror's file is never the one the download starts over with).
    func reasonToDropSource(after action: DownloadMachine.Action, source: Int) -> String? {
        guard sources.activeCount > 1 else { return nil }
        switch action {
        case .retry(let failure, _), .fail(let failure, _):
            return MirrorSources.isSourceFailure(failure) ? failure.message : nil
        case .startOver(let reason):
            return sources.isMirror(source) ? reason.words : nil
        case .attempt, .fallBack, .confirmWholePart, .finish, .keepAsNotModified, .confirmSameSize, .replaceOtherSize,
            .outputClosed:
            return nil
        }
    }

    /// Drops `source`, saying why once, and goes on with the next from where the data reaches
    /// (from the start when nothing guards a continue: `attempt(from:)`).
    func dropSource(_ source: Int, because reason: String) -> JobStep {
        if sources.drop(source, because: reason) {
            renderer.handle(.sourceDropped(info, source: sources.sources[source].url, reason: reason))
        }
        retries = environment.retryLoop()
        offset = machine.offset
        return nextAttempt()
    }

    /// The attempt's answer wrote `written` bytes from where its body began: its source's.
    func noteWritten(_ state: AttemptState, _ written: Int64) {
        guard state.bodyStarted, written > 0 else { return }
        sources.wrote(state.source, state.base..<state.base + written)
    }
}
