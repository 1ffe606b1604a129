/// A batch's rules per host (`HostSchedule`): how many of a host's items at once, and after how
/// many of its items in a row fail the same way (no address, no connection) it is given up.
public struct HostRules: Sendable, Equatable {
    /// Items, and connections, of one host at a time (`--max-per-host`); nil: no limit but `-j`.
    public var maxPerHost: Int?
    /// Nil never gives a host up (`--no-host-give-up`).
    public var giveUpAfter: Int?

    /// Three in a row: one failure may be the item's own bad luck, three of the same kind with
    /// none of the host's items getting through are the host.
    public static let giveUpAfterDefault = 3

    public init(maxPerHost: Int? = nil, giveUpAfter: Int? = giveUpAfterDefault) {
        self.maxPerHost = maxPerHost
        self.giveUpAfter = giveUpAfter
    }
}
