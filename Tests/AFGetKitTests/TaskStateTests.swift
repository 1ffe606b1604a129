import AFGetSession
import AFGetKit
import XCTest

final class TaskStateTests: XCTestCase {
    func testTheLifeOfATask() throws {
        var machine = TaskStateMachine()
        XCTAssertEqual(machine.state, .suspended)
        try machine.transition(to: .running)
        try machine.transition(to: .suspended)
        try machine.transition(to: .running)
        try machine.transition(to: .completed)
        XCTAssertEqual(machine.state, .completed)
    }

    func testCancelingFromEitherLiveState() throws {
        for start in [TaskState.suspended, .running] {
            var machine = TaskStateMachine()
            if start == .running { try machine.transition(to: .running) }
            try machine.transition(to: .canceling)
            try machine.transition(to: .completed)
        }
    }

    func testInvalidTransitionsAreRefused() throws {
        var machine = TaskStateMachine()
        XCTAssertThrowsError(try machine.transition(to: .completed)) { error in
            let invalid = error as? TaskStateMachine.InvalidTransition
            XCTAssertEqual(invalid?.from, .suspended)
            XCTAssertEqual(invalid?.to, .completed)
        }
        try machine.transition(to: .running)
        try machine.transition(to: .completed)
        for next in [TaskState.running, .suspended, .canceling, .completed] {
            XCTAssertThrowsError(try machine.transition(to: next), "completed is final")
        }
        XCTAssertEqual(machine.state, .completed)
    }
}
