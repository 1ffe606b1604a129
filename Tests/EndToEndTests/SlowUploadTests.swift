import Foundation
import Glibc
import TestServer
import XCTest

/// Uploads to a server that reads the body slowly: sending is progress, and the response
/// headers' clock starts once the body has been sent.
final class SlowUploadTests: ServerTestCase {
    /// A file of `size` known bytes in the test directory; returns its bytes.
    @discardableResult
    private func makeFile(_ name: String, size: Int) throws -> Data {
        let data = Data(TestPayload.bytes(0..<size))
        try data.write(to: directory.appendingPathComponent(name))
        return data
    }

    /// A body the server takes about 3 s to read, with a stall timeout of 1 s: the headers'
    /// clock started with the request, so every attempt failed after 1 s. (The last 4 MiB are
    /// read at full speed: the client's kernel takes in that much ahead of the server.)
    func testAnUploadLongerThanTheStallTimeoutFinishes() throws {
        let size = 10 << 20
        let data = try makeFile("data.bin", size: size)
        let result = try Afget.run(["upload", "-q", "--stall-timeout", "1", "--retry", "0", "data.bin",
                                    server.url("/slow-upload?rate=\(2 << 20)&slowfor=\(6 << 20)")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, "\(size) \(sha256Hex(data))\n")
        XCTAssertEqual(server.log.all.count, 1)
    }

    /// A body nobody reads stalls once nothing more can be sent for the stall timeout.
    func testABodyThatIsNotReadStalls() throws {
        try makeFile("data.bin", size: 16 << 20)
        let result = try Afget.run(["upload", "-q", "--stall-timeout", "1", "--retry", "0", "data.bin",
                                    server.url("/slow-upload?rate=0")], in: directory)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stderrLines, ["afget: data.bin: stalled: no body byte sent for 1 s"])
    }

    /// Once the body has been sent, the response headers are due within the stall timeout.
    func testHeadersAreDueWithinTheStallTimeoutAfterTheBody() throws {
        try makeFile("data.bin", size: 100_000)
        let result = try Afget.run(["upload", "-q", "--stall-timeout", "1", "--retry", "0", "data.bin",
                                    server.url("/silent")], in: directory)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stderrLines, ["afget: data.bin: stalled: no complete response headers within 1 s"])
        XCTAssertEqual(server.bodyBytesReceived, 100_000)
    }
}
