import AFGetRequest
import AFGetSupport
import Dispatch
import Synchronization
import CurlCore

/// What other threads ask the curl thread to do.
enum TaskCommand: Sendable {
    case create(TaskID, HTTPRequest, any ResponseBodyHandler, TransferOptions, TaskEvents)
    case resume(TaskID)
    case suspend(TaskID)
    case cancel(TaskID)
    /// The batch gave up on an origin (`TransferOptions.origin`): its tasks that have not
    /// reached it end with this failure, and none of its tasks starts from now on.
    case giveUp(origin: String, TransferFailure)
    /// The run stopped: every task ends, canceled for this reason.
    case stop(StopReason)
    case shutdown

    /// The curl thread has stopped: a task created too late ends at once, canceled.
    func refuse() {
        if case .create(let id, _, _, _, let events) = self {
            events.send(.canceled(id, nil, TransferProgress()))
        }
    }
}

/// The locked inbox through which commands reach the curl thread. Posting wakes the thread
/// out of `curl_multi_poll`; the wakeup is attached only while the multi handle exists, and is
/// called under the lock, so it can never reach a handle that is being destroyed.
final class CommandInbox: Sendable {
    private struct State {
        var commands: [TaskCommand] = []
        var wakeup: MultiWakeup?
        var nextID = 1
        var isClosed = false
    }

    private let state = PthreadMutex(State())

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
        state.withLock { state in
            defer { state.nextID += 1 }
            return TaskID(rawValue: state.nextID)
        }
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
