/// How a host asked for its items to wait.
enum HoldCause: Equatable {
    /// A 429 or 503 with Retry-After: the wait is the server's.
    case retryAfter
    /// An S3 store's SlowDown, most often without Retry-After: the wait is the item's backoff.
    case slowDown
}
