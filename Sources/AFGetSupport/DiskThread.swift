import CPlatform
import Dispatch
import Synchronization

/// A thread kept for work that blocks on the disk (fsync, syncfs, rename), taking jobs in
/// order, so the cooperative pool's few threads never wait on the disk. Owned by a run (the
/// download runner makes one and hands it to what needs it); the thread starts with the first
/// job and ends once its owner is gone and the jobs are done.
public final class DiskThread: Sendable {
    private final class Jobs: Sendable {
        let queue = PthreadMutex<(jobs: [@Sendable () -> Void], isClosed: Bool)>(([], false))
        let waiting = DispatchSemaphore(value: 0)
    }

    private let jobs = Jobs()
    private let started = Atomic(false)

    public init() {}

    deinit {
        jobs.queue.withLock { $0.isClosed = true }
        jobs.waiting.signal()
    }

    package func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.queue.withLock { $0.jobs.append(job) }
        if !started.exchange(true, ordering: .acquiringAndReleasing) {
            startThread(named: "afget-disk") { [jobs] in Self.work(jobs) }
        }
        jobs.waiting.signal()
    }

    private static func work(_ jobs: Jobs) {
        // Waking this thread for a round would otherwise preempt the thread handing it the
        // files (a thread switch per round); its work waits on the disk anyway, so it can wait
        // for a free core.
        _ = afp_mark_thread_batch()
        while true {
            jobs.waiting.wait()
            let next = jobs.queue.withLock { queue -> (@Sendable () -> Void)?? in
                if !queue.jobs.isEmpty { return queue.jobs.removeFirst() }
                return queue.isClosed ? .some(nil) : nil
            }
            switch next {
            case .some(.some(let job)): job()
            case .some(.none): return
            case .none: continue
            }
        }
    }
}
