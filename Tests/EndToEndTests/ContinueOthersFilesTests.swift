import Foundation
import TestServer
import XCTest

/// `-c` on a file another tool left short: continued only once the server's copy is longer and
/// the file's last bytes, asked for again, are the server's; otherwise left exactly as it is
/// (exit 9). It was skipped as "already exists", exit 0, with the file still short.
final class ContinueOthersFilesTests: ServerTestCase {
    private let size = 1_000_000

    private func leave(_ bytes: [UInt8], as name: String = "one.bin") throws {
        try Data(bytes).write(to: directory.appendingPathComponent(name))
    }

    private func sha(_ name: String = "one.bin") -> String? {
        sha256Hex(ofFile: directory.appendingPathComponent(name).path)
    }

    func testAShortCopyOfTheServersFileIsContinued() throws {
        for flag in ["-c", "--continue"] {
            try leave(TestPayload.bytes(0..<300_000))
            let before = server.log.all.count
            let url = server.url("/file/one.bin?size=\(size)")
            let result = try Afget.run(["--progress", "line", flag, url], in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(sha(), TestPayload.sha256(count: size))
            XCTAssertEqual(listing(directory), ["one.bin"])
            XCTAssertTrue(
                result.stderr.contains(
                    "one.bin: continuing the 300000 bytes already there (-c): the server's file is longer (1000000 bytes) "
                        + "and its last 65536 bytes are the server's"), result.stderr)
            let requests = server.log.all.dropFirst(before).map { $0.header("Range") ?? "-" }
            XCTAssertEqual(requests, ["bytes=234464-299999", "bytes=300000-"], "the overlap, then the rest")
            XCTAssertNotNil(server.log.all.last?.header("If-Range"), "the rest is tied to the version checked")
            try FileManager.default.removeItem(at: directory.appendingPathComponent("one.bin"))
        }
    }

    func testAFileWhoseEndIsNotTheServersIsLeftAlone() throws {
        let other = TestPayload.bytes(0..<300_000, version: 1)
        try leave(other)
        let result = try Afget.run(["-q", "-c", server.url("/file/one.bin?size=\(size)")], in: directory)
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertEqual(
            result.stderrLines,
            [
                "afget: one.bin: not continued (-c), the file is left as it is: "
                    + "its last 65536 bytes are not the server's: it is not a part of this file"
            ])
        XCTAssertEqual(sha(), sha256Hex(other))
        XCTAssertEqual(listing(directory), ["one.bin"])
    }

    func testAServerWithoutRangesLeavesTheFileAlone() throws {
        try leave(TestPayload.bytes(0..<300_000))
        let result = try Afget.run(["-q", "-c", server.url("/file/one.bin?size=\(size)&ranges=ignore")], in: directory)
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertTrue(result.stderr.contains("the server sent the whole file when asked for its end"), result.stderr)
        XCTAssertEqual(sha(), TestPayload.sha256(count: 300_000))
        XCTAssertEqual(listing(directory), ["one.bin"])
    }

    func testAFileLargerThanTheServersIsLeftAlone() throws {
        try leave(TestPayload.bytes(0..<size) + [1, 2, 3])
        let result = try Afget.run(["-q", "-c", server.url("/file/one.bin?size=\(size)")], in: directory)
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("it is larger (1000003 bytes) than the server's file (1000000 bytes)"), result.stderr)
        XCTAssertEqual(listing(directory), ["one.bin"])
    }

    func testAWholeCopyIsSkippedAsComplete() throws {
        try leave(TestPayload.bytes(0..<size))
        let result = try Afget.run(["-c", "--progress", "line", server.url("/file/one.bin?size=\(size)")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("already complete: it has the server's length (1000000 bytes)"), result.stderr)
        XCTAssertEqual(sha(), TestPayload.sha256(count: size))
    }

    /// Without `-c` an existing file is still the user's, skipped (`--on-exists skip`).
    func testWithoutContinueAnExistingFileIsSkipped() throws {
        try leave(TestPayload.bytes(0..<300_000))
        let result = try Afget.run(["-q", server.url("/file/one.bin?size=\(size)")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha(), TestPayload.sha256(count: 300_000))
        XCTAssertEqual(server.log.all.count, 0)
    }
}
