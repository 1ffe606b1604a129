import AFGetKit
import ArgumentParser

/// Continuing, restarting and retrying.
struct ResumeOptions: ParsableArguments {
    @Option(name: .customLong("retry"), help: ArgumentHelp(
        "Retry transient failures this many times, continuing from the bytes received.", valueName: "n"))
    var retries = 5

    @Option(name: .customLong("retry-delay"), help: ArgumentHelp(
        "First delay between attempts, doubled each time up to 30 s; Retry-After wins.", valueName: "seconds"))
    var retryDelay = 1.0

    @Flag(name: .customLong("restart"), help: "Discard resume data and start every download from zero.")
    var restart = false

    @Flag(name: .customLong("no-restart"), help: "Fail (exit 9) instead of starting over when a continue is impossible.")
    var noRestart = false

    @Flag(name: [.customShort("c"), .customLong("continue")], help: "Accepted for familiarity: afget always continues.")
    var continueDownloads = false

    func validate() throws {
        guard retries >= 0 else { throw ValidationError("--retry must be 0 or more") }
        guard retryDelay >= 0 else { throw ValidationError("--retry-delay must be 0 or more") }
        if restart && noRestart { throw ValidationError("--restart and --no-restart cannot be combined") }
    }

    var retryPolicy: RetryPolicy {
        RetryPolicy(maxRetries: retries, baseDelay: retryDelay)
    }
}
