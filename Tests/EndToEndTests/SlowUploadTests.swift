import Foundation
import Glibc
import TestServer
import XCTest

/// Uploads to a server that reads the body slowly: sending is progress, the response headers'
/// clock starts once the body has been sent, and a source file that changes meanwhile ends
/// the upload at once or is sent at the length announced.
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
        let result = try Afget.run(
            [
                "upload", "-q", "--stall-timeout", "1", "--retry", "0", "data.bin",
                server.url("/slow-upload?rate=\(2 << 20)&slowfor=\(6 << 20)"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, "\(size) \(sha256Hex(data))\n")
        XCTAssertEqual(server.log.all.count, 1)
    }

    /// A server that reads slowly to the end, for several sizes: the last second of the body
    /// waits in afget's own send queue after libcurl has handed it over, so timing the
    /// response headers from that moment failed every such upload (and its retries) as
    /// stalled while the server was still reading.
    func testTheHeadersClockStartsWhenTheSendQueueIsEmpty() throws {
        for (size, rate) in [(200_000, 200_000), (600_000, 600_000), (1_200_000, 1_200_000)] {
            let data = try makeFile("data-\(size).bin", size: size)
            let before = server.log.all.count
            let result = try Afget.run(
                [
                    "upload", "-q", "--stall-timeout", "1", "--retry", "0", "data-\(size).bin",
                    server.url("/slow-upload?rate=\(rate)"),
                ], in: directory)
            XCTAssertEqual(result.status, 0, "\(size) bytes at \(rate) B/s: \(result.stderr)")
            XCTAssertEqual(result.stdoutText, "\(size) \(sha256Hex(data))\n")
            XCTAssertEqual(server.log.all.count, before + 1, "sent once")
        }
    }

    /// A body nobody reads stalls once nothing more can be sent for the stall timeout.
    func testABodyThatIsNotReadStalls() throws {
        try makeFile("data.bin", size: 16 << 20)
        let result = try Afget.run(
            [
                "upload", "-q", "--stall-timeout", "1", "--retry", "0", "data.bin",
                server.url("/slow-upload?rate=0"),
            ], in: directory)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stderrLines, ["afget: data.bin: stalled: no body byte sent for 1 s"])
    }

    /// Once the body has been sent, the response headers are due within the stall timeout.
    func testHeadersAreDueWithinTheStallTimeoutAfterTheBody() throws {
        try makeFile("data.bin", size: 100_000)
        let result = try Afget.run(
            [
                "upload", "-q", "--stall-timeout", "1", "--retry", "0", "data.bin",
                server.url("/silent"),
            ], in: directory)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stderrLines, ["afget: data.bin: stalled: no complete response headers within 1 s"])
        XCTAssertEqual(server.bodyBytesReceived, 100_000)
    }

    /// Truncated while being sent, the file left the upload waiting at 0 B/s for a body that
    /// would never come.
    func testASourceFileThatShrinksEndsTheUploadAtOnceWithExit3() throws {
        try makeFile("data.bin", size: 16 << 20)
        let (process, stdout, stderr) = try Afget.start(
            [
                "upload", "-q", "data.bin",
                server.url("/slow-upload?rate=\(2 << 20)"),
            ], in: directory)
        defer { if process.isRunning { process.terminate() } }
        waitUntil("the server has part of the body") { server.bodyBytesReceived >= 1 << 20 }
        XCTAssertEqual(truncate(directory.appendingPathComponent("data.bin").path, 0), 0)
        waitUntil(timeout: 5, "afget ends") { !process.isRunning }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let errors = String(decoding: try Data(contentsOf: stderr), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 3, errors)
        XCTAssertTrue(errors.hasPrefix("afget: data.bin: data.bin shrank while being sent: "), errors)
        XCTAssertEqual(errors.split(separator: "\n").count, 1, errors)
        XCTAssertEqual(try Data(contentsOf: stdout), Data())
    }

    /// A file that grows while being sent is sent at the length announced: in a form, the
    /// bytes it gained took the place of the closing boundary.
    func testASourceFileThatGrowsIsSentAtTheLengthAnnounced() throws {
        let data = try makeFile("data.bin", size: 8 << 20)
        let (process, stdout, stderr) = try Afget.start(
            [
                "upload", "-q", "--method", "POST", "--field", "file", "data.bin",
                server.url("/slow-upload?rate=\(2 << 20)"),
            ], in: directory)
        defer { if process.isRunning { process.terminate() } }
        waitUntil("the server has part of the body") { server.bodyBytesReceived >= 1 << 20 }
        let handle = try FileHandle(forWritingTo: directory.appendingPathComponent("data.bin"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x41, count: 1 << 20))
        try handle.close()
        waitUntil(timeout: 15, "afget ends") { !process.isRunning }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let errors = String(decoding: try Data(contentsOf: stderr), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, errors)

        let contentType = try XCTUnwrap(server.log.all.first?.header("Content-Type"))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        var form = Data(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        form.append(data)
        form.append(Data("\r\n--\(boundary)--\r\n".utf8))
        let received = String(decoding: try Data(contentsOf: stdout), as: UTF8.self)
        XCTAssertEqual(received, "\(form.count) \(sha256Hex(form))\n")
    }
}
