@testable import AFGetSession
@testable import AFGetKit
@testable import AFGetSupport
import Synchronization
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

    /// A driver's channel: events handed over several at a time arrive in order, and a batch
    /// read takes every event kept at once.
    func testEventsSentTogetherAreReadAsOneBatchInOrder() async {
        let channel = EventChannel<Int>()
        let reader = Task { await channel.nextBatch() }
        await Task.yield()
        channel.send(contentsOf: [1, 2, 3])
        let first = await reader.value ?? []
        channel.send(contentsOf: [4, 5])
        channel.send(6)
        let rest = await channel.nextBatch() ?? []
        XCTAssertEqual(first + rest, [1, 2, 3, 4, 5, 6])
        channel.finish()
        let end = await channel.nextBatch()
        XCTAssertNil(end, "finished and drained")
    }

    /// The curl thread holds a turn's events for its work and hands them over together, in
    /// order, each once.
    func testWorkEventsAreHandedOverTogetherInOrderAndOnce() {
        let held = WorkEvents()
        let events = TaskEvents.work(held)
        let other = TaskID(rawValue: 2)
        events.send(.suspended(id))
        events.send(.suspended(other))
        events.send(.resumed(id))
        XCTAssertFalse(held.isEmpty)
        XCTAssertEqual(held.takeAll(), [.suspended(id), .suspended(other), .resumed(id)])
        XCTAssertTrue(held.isEmpty)
        XCTAssertEqual(held.takeAll(), [], "each event once")
    }

    /// The work's timers fire earliest first when due, each once; a stop fires every one at
    /// once with its reason.
    func testWorkTimersFireWhenDueAndAllAtOnceOnAStop() {
        var timers = WorkTimers()
        var fired: [(String, StopReason?)] = []
        timers.add(due: 30) { fired.append(("30", $0)) }
        timers.add(due: 10) { fired.append(("10", $0)) }
        timers.add(due: 20) { fired.append(("20", $0)) }
        XCTAssertEqual(timers.nextDue, 10)
        timers.fireDue(now: 5, stoppedBy: nil)
        XCTAssertTrue(fired.isEmpty, "nothing due yet")
        timers.fireDue(now: 20, stoppedBy: nil)
        XCTAssertEqual(fired.map(\.0), ["10", "20"])
        XCTAssertEqual(timers.nextDue, 30)
        timers.add(due: 1000) { fired.append(("1000", $0)) }
        timers.fireDue(now: 21, stoppedBy: .signal(SIGINT))
        XCTAssertEqual(fired.map(\.0), ["10", "20", "30", "1000"])
        XCTAssertEqual(fired.suffix(2).map(\.1), [.signal(SIGINT), .signal(SIGINT)])
        XCTAssertNil(timers.nextDue)
    }
}
