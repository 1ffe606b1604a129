/// The life of a task, after AFURLConnectionOperation's state machine and NSURLSessionTask:
///
///     suspended ⇄ running → completed
///         ↘        ↓         ↑
///           canceling ───────┘
///
/// A task is created suspended, runs when resumed, and ends completed (successfully or not).
public enum TaskState: String, Sendable, Equatable {
    case suspended
    case running
    case canceling
    case completed

    public func canTransition(to next: TaskState) -> Bool {
        switch (self, next) {
        case (.suspended, .running), (.running, .suspended),
            (.suspended, .canceling), (.running, .canceling),
            (.running, .completed), (.canceling, .completed):
            true
        default:
            false
        }
    }
}

/// A task's state with only the transitions above allowed.
public struct TaskStateMachine: Sendable, Equatable {
    public struct InvalidTransition: Error, Equatable, CustomStringConvertible {
        public let from: TaskState
        public let to: TaskState
        public var description: String { "invalid task state transition \(from) → \(to)" }
    }

    public private(set) var state: TaskState = .suspended

    public init() {}

    public mutating func transition(to next: TaskState) throws(InvalidTransition) {
        guard state.canTransition(to: next) else {
            throw InvalidTransition(from: state, to: next)
        }
        state = next
    }
}
