import Synchronization

/// Set once every transfer is to stop (Ctrl-C, fail-fast): read by libcurl's callbacks on
/// the curl thread, which end their transfer at once instead of after libcurl's current
/// piece of work — a decompression bomb decoded for seconds, say.
final class StopRequest: Sendable {
    private let flag = Atomic<Bool>(false)

    func set() {
        flag.store(true, ordering: .releasing)
    }

    var isSet: Bool {
        flag.load(ordering: .acquiring)
    }
}
