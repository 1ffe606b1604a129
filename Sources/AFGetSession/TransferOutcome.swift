import AFGetSupport

/// How a transfer that libcurl has finished ends: decided in one place, from what is known of
/// it, by `TransferEnding.outcome`.
enum TransferOutcome: Equatable {
    /// The run stopped it (its callbacks ended it).
    case canceled
    case completed
    case failed(TransferFailure)
    /// Nothing of a response came back over an HTTP/1.1 connection: the same request again,
    /// over HTTP/2.
    case resendOverHTTP2
    /// A redirect to follow (or to refuse, `RedirectPolicy` decides).
    case redirect(to: String)
}

/// What is known of a finished transfer, looked at in order of precedence: the run's stop, a
/// consumer that had all it wanted, this side's own reasons (a limit, the file), a connection
/// that refused HTTP/1.1, libcurl's failure, a redirect, and last the body's end (read only
/// then: ending the decoder has effects).
struct TransferEnding {
    var wasStopped = false
    /// The consumer said it has enough (a segment's end) and ended the transfer on purpose.
    var consumerHasEnough = false
    /// Why this side aborted the transfer (a limit, a refused body).
    var abortReason: TransferFailure?
    /// Writing out the received bytes failed.
    var flushFailure: TransferFailure?
    /// Nothing of a response came back over a connection of the transfer's own that offered
    /// only HTTP/1.1 over TLS (an empty reply, or HTTP/2 frames where a status line belongs).
    var refusedHTTP1 = false
    /// libcurl's failure, classified; nil when it finished the exchange.
    var curlFailure: TransferFailure?
    /// Where a redirect response points, when it is one.
    var redirectTarget: String?
    /// What the body's end says (a truncated coded body), asked for last.
    var bodyEnd: () -> TransferFailure? = { nil }

    var outcome: TransferOutcome {
        if wasStopped { return .canceled }
        if consumerHasEnough && flushFailure == nil && abortReason == nil { return .completed }
        if let abortReason { return .failed(abortReason) }
        if let flushFailure { return .failed(flushFailure) }
        if refusedHTTP1 { return .resendOverHTTP2 }
        if let curlFailure { return .failed(curlFailure) }
        if let redirectTarget { return .redirect(to: redirectTarget) }
        if let failure = bodyEnd() { return .failed(failure) }
        return .completed
    }
}
