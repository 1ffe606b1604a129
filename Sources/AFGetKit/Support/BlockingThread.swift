import Dispatch
import Foundation
import Synchronization

/// Runs work that blocks on the disk (fsync, rename) on a few threads kept for it, and waits
/// for it without blocking the caller's thread. Several items can wait on the disk at once
/// without holding the cooperative pool's few threads, and without a thread started per file.
func onBlockingThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DiskWorkers.shared.submit { continuation.resume(returning: work()) }
    }
}

/// A fixed set of threads taking jobs in order. Started on first use; they live as long as
/// the process.
final class DiskWorkers: Sendable {
    static let shared = DiskWorkers(threads: 8)

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let waiting = DispatchSemaphore(value: 0)

    private init(threads: Int) {
        for _ in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "afget-disk"
            thread.start()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    private func work() -> Never {
        while true {
            waiting.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job()
        }
    }
}
