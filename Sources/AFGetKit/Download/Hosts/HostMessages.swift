import AFGetSupport

/// The words of the host rules (`HostSchedule`), in one place.
enum HostMessages {
    static func held(_ host: String, seconds: Double, cause: HoldCause) -> String {
        let wait = Int(seconds.rounded())
        return switch cause {
        case .retryAfter: "afget: \(host) asked to wait \(wait) s (Retry-After): its items wait until then"
        case .slowDown: "afget: \(host) asked for fewer requests (SlowDown): its items wait \(wait) s"
        }
    }

    /// The server turned connections away beside the ones it served: its items go on that
    /// many at a time.
    static func takes(_ host: String, _ count: Int) -> String {
        "afget: \(host) takes \(count) connection\(count == 1 ? "" : "s") at once; going on with \(count)"
    }

    static func givenUp(_ host: String, _ reason: FailureReason, inARow: Int) -> String {
        "afget: giving up on \(host) for this run: \(inARow) of its items in a row failed (\(reason.hostFailureWords)); "
            + "its other items are not tried (--no-host-give-up tries each)"
    }

    /// The failure of an item of a given-up host: exit 4, with a reason of its own, so that a
    /// report tells it from an item that was tried, and a re-run tries it.
    static func notTried(_ host: String, reason: FailureReason, again: Bool) -> TransferFailure {
        TransferFailure(.connection(.hostGivenUp(host: host, after: reason, again: again)))
    }
}
