@testable import AFGetKit
import XCTest

final class WriteBuffersTests: XCTestCase {
    func testABufferGivenBackIsTheNextOneTakenOfItsSize() {
        let buffers = WriteBuffers(limit: 4)
        let size = BufferedFileWriter.capacity
        let first = buffers.take(size: size)
        buffers.giveBack(first, size: size)
        XCTAssertEqual(buffers.take(size: size), first)
        XCTAssertNotEqual(buffers.take(size: size), first, "a kept buffer is taken once")
    }

    func testBuffersAreKeptBySize() {
        let buffers = WriteBuffers(limit: 4)
        let large = buffers.take(size: 256 << 10)
        buffers.giveBack(large, size: 256 << 10)
        let other = buffers.take(size: BufferedFileWriter.capacity)
        XCTAssertNotEqual(other, large)
        buffers.giveBack(other, size: BufferedFileWriter.capacity)
    }

    func testSmallBuffersAndThoseBeyondTheLimitAreFreed() {
        let buffers = WriteBuffers(limit: 1)
        let size = BufferedFileWriter.capacity
        let (first, second) = (buffers.take(size: size), buffers.take(size: size))
        buffers.giveBack(first, size: size)
        buffers.giveBack(second, size: size)
        XCTAssertEqual(buffers.keptCount(size: size), 1)
        XCTAssertEqual(buffers.take(size: size), first)

        let small = buffers.take(size: 16 << 10)
        buffers.giveBack(small, size: 16 << 10)
        XCTAssertEqual(buffers.keptCount(size: 16 << 10), 0, "malloc's own, not kept")
    }
}
