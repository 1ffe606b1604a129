import AFGetRequest
import AFGetSupport
import COpenSSL
import Dispatch
import Synchronization

/// A task created by the task manager, and the stream of its events, in order, ending after
/// its last one (completed, failed or canceled).
public struct SessionTask: Sendable {
    public let id: TaskID
    public let events: TaskEventSequence
}

/// Creates and drives data, upload and download tasks over one libcurl multi handle.
///
/// The manager is the AFURLSessionManager of afget: callers on any thread create tasks and
/// resume, suspend or cancel them; a single curl thread owns every libcurl handle and reports
/// what happens on each task's own event stream, so an event reaches the one waiting for it
/// without passing through anyone else.
public final class TaskManager: Sendable {
    private let inbox = CommandInbox()
    private let stopped = DispatchSemaphore(value: 0)
    /// The run's stop: when it comes, every task ends, canceled with its reason.
    public let cancellation: Cancellation

    /// `idleConnectionsKept`: how many connections stay open for reuse once their transfers
    /// end. libcurl's default, four per transfer running at that moment, closes connections
    /// whenever a batch briefly runs few transfers, so a run that knows how many it runs at
    /// once (`-j`, `-s`) says so. `connectionsPerHost`: the most connections to one host at
    /// once (`--max-per-host`); a transfer beyond them waits in libcurl for one to be free.
    /// `totalRateLimit`: the most bytes per second every task together receives
    /// (`--limit-total-rate`).
    public init(
        cancellation: Cancellation = Cancellation(), idleConnectionsKept: Int? = nil, connectionsPerHost: Int? = nil,
        totalRateLimit: Int64? = nil
    ) {
        self.cancellation = cancellation
        startThread(named: "afget-curl") { [inbox, stopped] in
            CurlLoop(
                inbox: inbox, cancellation: cancellation, idleConnectionsKept: idleConnectionsKept,
                connectionsPerHost: connectionsPerHost,
                runRate: totalRateLimit.map { RunRate(bytesPerSecond: $0) }
            ).run()
            // OpenSSL keeps random-number state for each thread that used it (libcurl's TLS did,
            // here) and frees it when the thread ends; afget may exit as soon as `invalidate`
            // returns, before this detached thread has ended, so the state is given back first
            // (LeakSanitizer found it left behind by `-s` over HTTPS, 3 runs in 5).
            OPENSSL_thread_stop()
            stopped.signal()
        }
        cancellation.onStop { [inbox] reason in inbox.post(.stop(reason)) }
    }

    /// A task whose response body is collected in memory, up to `bodyLimit` bytes.
    public func dataTask(with request: HTTPRequest, bodyLimit: Int = 64 << 20, options: TransferOptions = TransferOptions())
        -> SessionTask
    {
        task(with: request, body: CollectedBody(limit: bodyLimit), options: options)
    }

    /// A task that sends `request.body` and collects the response body: a data task, named for
    /// what it is for (any task sends the body its request has).
    public func uploadTask(with request: HTTPRequest, bodyLimit: Int = 64 << 20, options: TransferOptions = TransferOptions())
        -> SessionTask
    {
        dataTask(with: request, bodyLimit: bodyLimit, options: options)
    }

    /// A task that sends `request` (and its body, if any) and hands the final response's body
    /// to what `body` accepts it with.
    public func task(with request: HTTPRequest, body: any ResponseBodyHandler, options: TransferOptions = TransferOptions())
        -> SessionTask
    {
        let id = inbox.makeID()
        let channel = EventChannel<TaskEvent>()
        inbox.post(.create(id, request, body, options, channel))
        return SessionTask(id: id, events: TaskEventSequence(channel: channel))
    }

    /// Runs work on the curl thread until it is over, and returns what it finished with.
    /// `make` is called there, with the thread's handle and the work's `finish`, which the
    /// work calls once, as its last pass ends; the work and all it holds stay on that thread,
    /// and what it finishes with is handed back. Nil when the curl thread had already stopped.
    public func run<Outcome>(
        _ make: sending @escaping (CurlThread, _ finish: @escaping @Sendable (sending Outcome) -> Void) -> any CurlThreadWork
    ) async -> sending Outcome? {
        let outcome = OutcomeSlot<Outcome>()
        let hosted = HostedWork(
            make: { thread in make(thread) { outcome.resume(with: $0) } }, refuse: { outcome.resume(with: nil) })
        return await withCheckedContinuation { continuation in
            outcome.wait(continuation)
            inbox.post(.host(hosted))
        }
    }

    /// Starts a new task or continues a suspended one.
    public func resume(_ id: TaskID) { inbox.post(.resume(id)) }

    /// Pauses a running task; its connection stays open.
    public func suspend(_ id: TaskID) { inbox.post(.suspend(id)) }

    public func cancel(_ id: TaskID) { inbox.post(.cancel(id)) }

    /// Nothing more of `origin` (`TransferOptions.origin`) starts: its tasks waiting at their
    /// gate, not yet started, or still resolving or connecting end with `failure` (a task
    /// connecting to a host given up for not answering is doomed with it), as do those created
    /// later; transfers that reached their server go on. Decided on the curl thread, which
    /// starts gated tasks itself: a place freed as the host is given up is never handed to one
    /// of its tasks.
    public func giveUp(origin: String, failing failure: TransferFailure) { inbox.post(.giveUp(origin: origin, failure)) }

    /// Cancels what is left and stops the curl thread, waiting for it; every task's events end.
    /// Tasks created later end at once, canceled. Calling it again returns at once.
    public func invalidate() {
        inbox.post(.shutdown)
        stopped.wait()
        stopped.signal()
    }
}

/// Where the work's outcome is handed back to the task waiting for it.
private final class OutcomeSlot<Outcome>: Sendable {
    private let waiting = PthreadMutex<CheckedContinuation<Outcome?, Never>?>(nil)

    func wait(_ continuation: CheckedContinuation<Outcome?, Never>) {
        waiting.withLock { $0 = continuation }
    }

    func resume(with outcome: sending Outcome?) {
        let continuation = waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(returning: outcome)
    }
}
