import AFGetRequest
import AFGetSupport
import Dispatch
import Synchronization
import CurlCore

/// What other threads ask the curl thread to do.
enum TaskCommand: Sendable {
    case create(TaskID, HTTPRequest, any ResponseBodyHandler, TransferOptions, EventChannel<TaskEvent>)
    case resume(TaskID)
    case suspend(TaskID)
    case cancel(TaskID)
    /// The batch gave up on an origin (`TransferOptions.origin`): its tasks that have not
    /// reached it end with this failure, and none of its tasks starts from now on.
    case giveUp(origin: String, TransferFailure)
    /// The run stopped: every task ends, canceled for this reason.
    case stop(StopReason)
    /// Work to run on the curl thread until it is over (a batch's driver).
    case host(HostedWork)
    /// Only to bring the loop out of its wait: the work has something to take.
    case wake
    case shutdown

    /// The curl thread has stopped: a task created too late ends at once, canceled.
    func refuse() {
        switch self {
        case .create(let id, _, _, _, let channel):
            channel.send(.canceled(id, nil, TransferProgress()))
            channel.finish()
        case .host(let work):
            work.refuse()
        default:
            break
        }
    }
}

/// Work for the curl thread, as `TaskManager.run` posts it: how to make it there (what it
/// starts from is handed over to that thread, not shared), and what to do when the thread has
/// stopped and cannot run it.
final class HostedWork: Sendable {
    typealias Make = (CurlThread) -> any CurlThreadWork
    private let make: PthreadMutex<Make?>
    let refuse: @Sendable () -> Void

    init(make: sending @escaping Make, refuse: @escaping @Sendable () -> Void) {
        self.make = PthreadMutex(make)
        self.refuse = refuse
    }

    /// The work, made on the curl thread (once).
    func start(on thread: CurlThread) -> (any CurlThreadWork)? {
        let make = self.make.withLock { make in
            defer { make = nil }
            return make
        }
        return make?(thread)
    }
}

/// The locked inbox through which commands reach the curl thread. Posting wakes the thread
/// out of `curl_multi_poll`; the wakeup is attached only while the multi handle exists, and is
/// called under the lock, so it can never reach a handle that is being destroyed.
final class CommandInbox: Sendable {
    private struct State {
        var commands: [TaskCommand] = []
        var wakeup: MultiWakeup?
        var isClosed = false
    }

    private let state = PthreadMutex(State())
    /// Task IDs come from here, on any thread, without the lock (the curl thread's work takes
    /// one per request).
    private let nextID = Atomic(1)

    func post(_ command: TaskCommand) {
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            // Commands already waiting have sent a wakeup the curl thread has not yet acted
            // on (it takes every command after each wakeup): one wakeup (a write to a socket)
            // serves them all.
            if state.commands.isEmpty { state.wakeup?() }
            state.commands.append(command)
            return true
        }
        if !accepted { command.refuse() }
    }

    func makeID() -> TaskID {
        TaskID(rawValue: nextID.add(1, ordering: .relaxed).oldValue)
    }

    func takeAll() -> [TaskCommand] {
        state.withLock { state in
            defer { state.commands.removeAll() }
            return state.commands
        }
    }

    func attach(_ wakeup: MultiWakeup) {
        state.withLock { $0.wakeup = wakeup }
    }

    /// Takes no more commands (later ones are refused) and returns those not yet taken.
    func close() -> [TaskCommand] {
        state.withLock { state in
            state.isClosed = true
            state.wakeup = nil
            defer { state.commands.removeAll() }
            return state.commands
        }
    }
}
