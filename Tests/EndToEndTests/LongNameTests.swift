import Foundation
import TestServer
import XCTest

/// `-o` names too long for `NAME.afpart` and `NAME.afresume` to fit NAME_MAX (255 bytes):
/// afget's own files get a shortened name, found again by the next run; a name no file may
/// have is refused before anything is fetched.
final class LongNameTests: ServerTestCase {
    let size = 4_000_000

    /// 1 MB/s for its first 2 MB, then the rest at once: slow enough to interrupt after the
    /// first checkpoint, and a continue that does not wait for the rest.
    private var url: String { server.url("/file/long.bin?size=\(size)&chunk=20000&ms=20&fastfrom=2000000") }

    /// A name of `bytes` bytes ending in `.bin`.
    private func name(bytes: Int) -> String { String(repeating: "n", count: bytes - 4) + ".bin" }

    private func resumeDataFile() -> URL? {
        listing(directory).first { $0.hasSuffix(".afresume") }.map { directory.appendingPathComponent($0) }
    }

    /// Starts `arguments`, waits for a checkpoint and stops afget with Ctrl-C: exit 130, and
    /// afget's own files beside the destination all have names that fit.
    private func interruptAfterProgress(_ arguments: [String]) throws {
        let (process, _, _) = try Afget.start(arguments, in: directory)
        waitUntil("a checkpoint beyond 100000 bytes") { resumeDataFile().flatMap(checkpointedBytes) ?? 0 > 100_000 }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let left = listing(directory)
        XCTAssertEqual(left.count, 2, "\(left)")
        XCTAssertTrue(left.allSatisfy { $0.utf8.count <= 255 }, "\(left)")
        XCTAssertTrue(left.contains { $0.hasSuffix(".afpart") } && left.contains { $0.hasSuffix(".afresume") }, "\(left)")
    }

    func testAnOutputNameOf250BytesSurvivesCtrlCAndTheSameCommandContinues() throws {
        let long = name(bytes: 250)
        try interruptAfterProgress(["-q", "-o", long, url])
        let before = server.log.all.count
        let result = try Afget.run(["--progress", "line", "-o", long, url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("continuing at"), result.stderr)
        XCTAssertNotNil(server.log.all.dropFirst(before).first?.header("Range"), "continued, not started over")
        XCTAssertEqual(listing(directory), [long])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent(long).path), TestPayload.sha256(count: size))
    }

    func testResumeCommandContinuesUnderTheLongName() throws {
        let long = name(bytes: 253)
        try interruptAfterProgress(["-q", "-o", long, url])
        let result = try Afget.run(["resume", "-q", "."], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), [long])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent(long).path), TestPayload.sha256(count: size))
    }

    func testAnOutputNameOf255BytesDownloads() throws {
        let longest = name(bytes: 255)
        let result = try Afget.run(["-q", "-o", "sub/" + longest, server.url("/file/small.bin?size=5000")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("sub")), [longest])
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("sub/" + longest).path), TestPayload.sha256(count: 5000))
    }

    func testANameNoFileMayHaveIsALocalFileErrorBeforeAnyRequest() throws {
        let tooLong = name(bytes: 256)
        let result = try Afget.run(["-o", "sub/" + tooLong, server.url("/file/small.bin?size=5000")], in: directory)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertEqual(
            result.stderrLines,
            [
                "afget: sub/\(tooLong): the file name is 256 bytes long, more than the 255 a file system allows; choose a shorter name"
            ])
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(listing(directory), [])
    }
}
