import Foundation
import Glibc
import TestServer
import XCTest

/// Small bodies (DESIGN.md §4): a new download of at most 1 MiB is written to a file with no
/// name and linked into place only when complete and durable, so nothing of it is ever on disk
/// under another name, and `DEST` is never partial.
final class SmallBodyTests: ServerTestCase {
    /// About a second of body, 50 kB every 50 ms, so a test can watch and stop it.
    private func dripping(_ name: String, size: Int = 800_000) -> String {
        server.url("/file/\(name)?size=\(size)&chunk=40000&ms=50")
    }

    func testASmallDownloadLeavesNoOtherFileAtAnyMoment() throws {
        let (process, _, _) = try Afget.start(["-q", dripping("s.bin")], in: directory)
        var seen = Set<String>()
        while process.isRunning {
            seen.formUnion(listing(directory))
            usleep(2_000)
        }
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(seen.subtracting(["s.bin"]), [], "only the finished file ever appears")
        XCTAssertEqual(listing(directory), ["s.bin"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("s.bin").path), TestPayload.sha256(count: 800_000))
    }

    func testAKilledSmallDownloadLeavesEitherNothingOrTheWholeFile() throws {
        for round in 0..<8 {
            let (process, _, _) = try Afget.start(["-q", dripping("k\(round).bin")], in: directory)
            // Stopped at a different moment each round, from before the request to after the move.
            usleep(UInt32(round) * 150_000)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let left = listing(directory).filter { $0.hasPrefix("k\(round).") }
            XCTAssertTrue(left == [] || left == ["k\(round).bin"], "round \(round): \(left)")
            if left == ["k\(round).bin"] {
                XCTAssertEqual(
                    sha256Hex(ofFile: directory.appendingPathComponent("k\(round).bin").path),
                    TestPayload.sha256(count: 800_000), "round \(round): a file in place is whole")
            }
        }
    }

    func testTwoRunsForOneSmallFileLeaveOneWholeFileAndTheLoserSaysSo() throws {
        let url = dripping("race.bin", size: 400_000)
        let first = try Afget.start(["--progress", "line", url], in: directory)
        let second = try Afget.start(["--progress", "line", url], in: directory)
        first.process.waitUntilExit()
        second.process.waitUntilExit()
        XCTAssertEqual(first.process.terminationStatus, 0)
        XCTAssertEqual(second.process.terminationStatus, 0)
        let messages = try [first.stderr, second.stderr].map { try String(contentsOf: $0, encoding: .utf8) }
        XCTAssertEqual(messages.filter { $0.contains("race.bin: done") }.count, 1, "\(messages)")
        XCTAssertEqual(messages.filter { $0.contains("another download put it in place first") }.count, 1, "\(messages)")
        XCTAssertEqual(listing(directory), ["race.bin"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("race.bin").path), TestPayload.sha256(count: 400_000))
    }

    func testOverwriteReplacesAnExistingFileWithTheSmallBody() throws {
        let file = directory.appendingPathComponent("o.bin")
        try Data("old".utf8).write(to: file)
        chmod(file.path, 0o640)
        let result = try Afget.run(["-q", "--on-exists", "overwrite", server.url("/file/o.bin?size=30000")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["o.bin"])
        XCTAssertEqual(sha256Hex(ofFile: file.path), TestPayload.sha256(count: 30_000))
        var status = stat()
        stat(file.path, &status)
        XCTAssertEqual(status.st_mode & 0o777, 0o640, "the replaced file's mode is kept")
    }

    func testWhereFilesWithNoNameAreRefusedThePartFileIsUsed() throws {
        let (process, _, _) = try Afget.start(
            ["-q", dripping("p.bin")], in: directory, environment: ["AFGET_NO_ANONYMOUS_FILES": "1"])
        waitUntil("the part file of the named path") { listing(self.directory).contains("p.bin.afpart") }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(listing(directory), ["p.bin"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("p.bin").path), TestPayload.sha256(count: 800_000))
    }

    func testALargeNewDownloadGetsItsPartFileAndResumeDataAtItsFirstCheckpoint() throws {
        let size = 3_000_000
        let (process, _, _) = try Afget.start(
            ["-q", server.url("/file/l.bin?size=\(size)&chunk=100000&ms=50")], in: directory)
        waitUntil("resume data counting bytes") {
            (checkpointedBytes(self.directory.appendingPathComponent("l.bin.afresume")) ?? 0) > 0
        }
        XCTAssertTrue(listing(directory).contains("l.bin.afpart"))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let again = try Afget.run(["-q", server.url("/file/l.bin?size=\(size)&chunk=100000&ms=50")], in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("l.bin").path), TestPayload.sha256(count: size))
        XCTAssertNotNil(server.log.all.last?.header("Range"), "continued, not started over")
    }
}
