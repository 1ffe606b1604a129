/// A bound on how many of the tasks that share it transfer at once (`-j`). Tasks beyond it
/// wait on the curl thread, lowest `TransferOptions.gateOrder` first, and the next one starts
/// there the moment one ends, instead of a thread of the caller's being woken to start it: for
/// a batch of small files that hand-over was most of the time a transfer slot stood empty. The
/// count itself is kept by the curl loop.
public final class TransferGate: Sendable, Equatable {
    public let limit: Int

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    public static func == (lhs: TransferGate, rhs: TransferGate) -> Bool { lhs === rhs }
}
