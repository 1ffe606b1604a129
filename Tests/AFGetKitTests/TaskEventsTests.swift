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

    /// The curl thread holds a pass's events per route and hands each route its own, in order.
    func testHeldEventsReachEachRouteTogetherAndInOrder() {
        let firstRoute = Delivered()
        let secondRoute = Delivered()
        let first = TaskEventRoute { firstRoute.add($0) }
        let second = TaskEventRoute { secondRoute.add($0) }
        let held = HeldEvents()
        let other = TaskID(rawValue: 2)
        held.add(.suspended(id), to: first)
        held.add(.suspended(other), to: second)
        held.add(.resumed(id), to: first)
        XCTAssertEqual(firstRoute.batches, [], "nothing before the pass ends")
        held.deliver()
        XCTAssertEqual(firstRoute.batches, [[.suspended(id), .resumed(id)]])
        XCTAssertEqual(secondRoute.batches, [[.suspended(other)]])
        held.deliver()
        XCTAssertEqual(firstRoute.batches.count, 1, "each event once")
    }
}

/// What a route was handed, batch by batch.
private final class Delivered: Sendable {
    private let handed = PthreadMutex<[[TaskEvent]]>([])

    func add(_ events: [TaskEvent]) { handed.withLock { $0.append(events) } }

    var batches: [[TaskEvent]] { handed.withLock { $0 } }
}
