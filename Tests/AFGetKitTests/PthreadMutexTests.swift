import AFGetSupport
import Dispatch
import XCTest

/// The lock afget's shared state sits behind (in place of Synchronization's Mutex, whose futex
/// calls ThreadSanitizer cannot see): it must still exclude, and hand back what the body returns.
final class PthreadMutexTests: XCTestCase {
    func testIncrementsFromManyThreadsAreAllCounted() {
        let counter = PthreadMutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
        }
        XCTAssertEqual(counter.withLock { $0 }, 160_000)
    }

    func testABodyReturnsAndThrowsThroughTheLock() {
        struct Refused: Error {}
        let names = PthreadMutex(["a"])
        XCTAssertEqual(
            names.withLock { names -> Int in
                names.append("b")
                return names.count
            }, 2)
        XCTAssertThrowsError(try names.withLock { _ throws(Refused) in throw Refused() })
        // The lock was let go when the body threw: taking it again does not wait forever.
        XCTAssertEqual(names.withLock { $0 }, ["a", "b"])
    }
}
