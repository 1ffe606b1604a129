import AFGetRequest

/// When and how long to wait before trying a failed transfer again (DESIGN.md §8):
/// transient failures and HTTP 408, 429, 500, 502, 503, 504 are retried with a delay that
/// doubles from `baseDelay` up to 30 s; a server's Retry-After wins, up to 5 minutes.
public struct RetryPolicy: Sendable, Equatable {
    public var maxRetries: Int
    public var baseDelay: Double
    /// The user asked for retries (`--retry N`): a POST or PATCH is repeated like any request.
    public var retriesAnyMethod: Bool
    public var statuses: StatusRetries
    public static let maxBackoff = 30.0

    /// Which final statuses are tried again (failures on the way, such as a reset, always are).
    public enum StatusRetries: Sendable, Equatable {
        /// Every transient one: a download or an upload is a job to get done.
        case transient
        /// Only a 429 or 503 whose Retry-After says when to come back. Someone debugging an API
        /// (`afget request`) wants the 500 and its body at once, as curl and httpie show it,
        /// not half a minute later.
        case whenTheServerSaysWhen
    }

    public init(
        maxRetries: Int = 5, baseDelay: Double = 1, retriesAnyMethod: Bool = false, statuses: StatusRetries = .transient
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.retriesAnyMethod = retriesAnyMethod
        self.statuses = statuses
    }

    public static func isTransient(status: Int) -> Bool {
        [408, 429, 500, 502, 503, 504].contains(status)
    }

    /// Whether a final response with this status (and Retry-After) is tried again.
    public func retries(status: Int, retryAfter: String?, now: Int64) -> Bool {
        guard Self.isTransient(status: status) else { return false }
        switch statuses {
        case .transient:
            return true
        case .whenTheServerSaysWhen:
            return (status == 429 || status == 503) && retryAfter.flatMap { RetryAfter.seconds($0, now: now) } != nil
        }
    }

    public enum Decision: Sendable, Equatable {
        case retry(after: Double)
        case giveUp
        /// The server asked for a wait longer than afget will make: `seconds`, as its
        /// Retry-After said.
        case tooLongToWait(seconds: Int, retryAfter: String)
    }

    /// After `failedAttempts` failures (1 after the first), with the response's Retry-After if any.
    public func decision(afterFailedAttempts failedAttempts: Int, retryAfter: String?, now: Int64) -> Decision {
        guard failedAttempts <= maxRetries else { return .giveUp }
        if let retryAfter, let wait = RetryAfter.seconds(retryAfter, now: now) {
            guard wait <= RetryAfter.longestWait else {
                return .tooLongToWait(seconds: Int(wait), retryAfter: retryAfter)
            }
            return .retry(after: wait)
        }
        let exponent = Double(min(failedAttempts - 1, 30))
        return .retry(after: min(Self.maxBackoff, baseDelay * pow2(exponent)))
    }
}

private func pow2(_ exponent: Double) -> Double {
    var result = 1.0
    for _ in 0..<Int(exponent) { result *= 2 }
    return result
}
