import AFGetKit
import ArgumentParser

/// Retrying transient failures (every subcommand).
struct RetryOptions: ParsableArguments {
    @Option(
        name: .customLong("retry"),
        help: ArgumentHelp(
            "Retry transient failures this many times (default 5; downloads continue from the bytes received); given, "
                + "a POST is retried too, and afget request retries HTTP 408, 429, 500, 502, 503 and 504.",
            valueName: "n"))
    var retries: Int?

    @Option(
        name: .customLong("retry-delay"),
        help: ArgumentHelp(
            "First delay between attempts, doubled each time up to 30 s; Retry-After wins.", valueName: "seconds"))
    var retryDelay = 1.0

    @Flag(
        name: .customLong("retry-refused"),
        help: "Retry a refused connection also when the host has not accepted one in this run (wget's --retry-connrefused).")
    var retryRefused = false

    func validate() throws {
        guard retries ?? 0 >= 0 else { throw ValidationError("--retry must be 0 or more") }
        guard retryDelay >= 0 && retryDelay.isFinite else {
            throw ValidationError("--retry-delay must be a number of seconds, 0 or more")
        }
    }

    /// For downloads and uploads: every transient failure and status.
    var policy: RetryPolicy {
        RetryPolicy(
            maxRetries: retries ?? 5, baseDelay: retryDelay, retriesAnyMethod: retries != nil,
            firstContactTimeoutRetries: retries ?? 1)
    }

    /// For `afget request`: the status a server answers is shown at once, as curl and httpie
    /// show it, unless `--retry N` asks for retries or the server said when to come back
    /// (Retry-After on a 429 or 503). Failures on the way (a reset, a timeout) are retried.
    var requestPolicy: RetryPolicy {
        var policy = policy
        if retries == nil { policy.statuses = .whenTheServerSaysWhen }
        return policy
    }
}
