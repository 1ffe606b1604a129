import AFGetRequest
import AFGetSupport

/// When and how long to wait before trying a failed transfer again (DESIGN.md §8):
/// transient failures and HTTP 408, 429, 500, 502, 503, 504 are retried with a delay that
/// doubles from `baseDelay` up to 30 s; a server's Retry-After wins, up to 5 minutes.
public struct RetryPolicy: Sendable, Equatable {
    public var maxRetries: Int
    public var baseDelay: Double
    /// The user asked for retries (`--retry N`): a POST or PATCH is repeated like any request.
    public var retriesAnyMethod: Bool
    public var statuses: StatusRetries
    /// Retries of a connect timeout to a host that has not answered in this run (at most
    /// `maxRetries`): the kernel already sent its SYN again several times within the timeout, so
    /// five more timeouts (minutes of a blank wait) rarely find a host the first did not. One
    /// more try covers a network that was coming up; `--retry N` given explicitly sets it to N.
    public var firstContactTimeoutRetries: Int
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
        maxRetries: Int = 5, baseDelay: Double = 1, retriesAnyMethod: Bool = false, statuses: StatusRetries = .transient,
        firstContactTimeoutRetries: Int = 1
    ) {
        self.maxRetries = maxRetries
        self.firstContactTimeoutRetries = firstContactTimeoutRetries
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

    /// The retries `failure` gets: fewer for a connect timeout to a host not answered yet.
    public func retryCount(for failure: TransferFailure) -> Int {
        guard case .connection(.connectTimeoutOnFirstContact) = failure.reason else { return maxRetries }
        return min(maxRetries, firstContactTimeoutRetries)
    }

    /// After `failedAttempts` failures (1 after the first) the last of which was `failure`, with
    /// the response's Retry-After if any.
    public func decision(
        afterFailedAttempts failedAttempts: Int, of failure: TransferFailure? = nil, retryAfter: String?, now: Int64
    ) -> Decision {
        guard failedAttempts <= failure.map(retryCount(for:)) ?? maxRetries else { return .giveUp }
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
