@testable import AFGetSession
@testable import AFGetKit
@testable import AFGetSupport
import XCTest

/// A task's events reach its one reader in order, whether the reader was already waiting or
/// comes later, and end with the last one.
final class TaskEventsTests: XCTestCase {
    private let id = TaskID(rawValue: 1)

    func testEventsKeptUntilReadThenEndAfterTheLast() async {
        let channel = EventChannel<TaskEvent>()
        let events = TaskEvents.own(channel)
        events.send(.suspended(id))
        events.send(.resumed(id))
        events.send(.canceled(id, nil, TransferProgress()))
        events.send(.suspended(id))  // after the last: dropped
        var received: [TaskEvent] = []
        for await event in TaskEventSequence(channel: channel) { received.append(event) }
        XCTAssertEqual(received, [.suspended(id), .resumed(id), .canceled(id, nil, TransferProgress())])
    }

    func testAWaitingReaderIsHandedEachEvent() async {
        let channel = EventChannel<TaskEvent>()
        let events = TaskEvents.own(channel)
        let reader = Task {
            var received: [TaskEvent] = []
            for await event in TaskEventSequence(channel: channel) { received.append(event) }
            return received
        }
        let sent = (0..<200).map { count in
            var progress = TransferProgress()
            progress.received = Int64(count)
            return TaskEvent.progress(id, progress)
        }
        for event in sent {
            events.send(event)
            await Task.yield()
        }
        events.send(.canceled(id, nil, TransferProgress()))
        let received = await reader.value
        XCTAssertEqual(received, sent + [.canceled(id, nil, TransferProgress())])
    }
}
