import CPlatform
import Dispatch
import Synchronization

/// A thread kept for work that blocks on the disk (fsync, syncfs, rename), taking jobs in
/// order, so the cooperative pool's few threads never wait on the disk. Started on first use;
/// it lives as long as the process.
final class DiskThread: Sendable {
    static let shared = DiskThread()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let waiting = DispatchSemaphore(value: 0)

    private init() {
        startThread(named: "afget-disk") { [unowned self] in self.work() }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    private func work() -> Never {
        // Waking this thread for a round would otherwise preempt the thread handing it the
        // files (a thread switch per round: 15% of all switches in a batch of small files);
        // its work waits on the disk anyway, so it can wait for a free core.
        _ = afp_mark_thread_batch()
        while true {
            waiting.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job()
        }
    }
}
