import Foundation
import Glibc
import TestServer
import XCTest

/// A checksum that fails on a file from several sources: the source at fault is found (its
/// bytes fetched again from the others), dropped with a notice naming it, and the file ends
/// exact; only when no source gives bytes that match does the item fail (exit 10, data kept).
/// A source serving other bytes of the same length and time is `v=K` on the test server: its
/// own ETag, which a mirror's is never compared with, and the same Last-Modified.
final class MirrorFaultTests: TwoServerTestCase {
    private func checksum(_ size: Int) -> [String] {
        ["--checksum", "sha256=\(TestPayload.sha256(count: size))"]
    }

    private func droppedForItsBytes(_ stderr: String, _ source: String) -> Int {
        stderr.components(separatedBy: "\n").filter {
            $0.contains("dropping source \(source) (its bytes did not match the checksum)")
        }.count
    }

    private static let split = ["-s", "4", "--min-split-size", "128K"]

    /// The first source serves other bytes of the same length and time: it does not decide what
    /// the file is. With one connection (it served every byte) and with segments, the file ends
    /// exact from the second, and the first is dropped with a notice naming it.
    func testABadFirstSourceIsFoundAndTheFileEndsExact() throws {
        let size = 1_500_000
        for (name, split) in [("one.bin", [String]()), ("split.bin", Self.split)] {
            let bad = server.url("/file/\(name)?size=\(size)&v=1&chunk=50000&ms=5")
            let good = second.url("/file/\(name)?size=\(size)&chunk=50000&ms=5")
            let result = try Afget.run(
                ["--report", "report.json"] + split + checksum(size) + ["--mirror", good, bad], in: directory)
            XCTAssertEqual(result.status, 0, "\(split): \(result.stderr)")
            XCTAssertEqual(sha(name), TestPayload.sha256(count: size), "\(split)")
            XCTAssertEqual(droppedForItsBytes(result.stderr, bad), 1, "\(split): \(result.stderr)")
            XCTAssertEqual(droppedForItsBytes(result.stderr, good), 0, "\(split): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("to find the source at fault"), result.stderr)
            XCTAssertFalse(exists(directory.appendingPathComponent("\(name).afpart")))
            XCTAssertFalse(exists(directory.appendingPathComponent("\(name).afresume")))
            let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
            XCTAssertTrue(report.contains("its bytes did not match the checksum"), report)
        }
    }

    /// A stale mirror listed first serves another file of the same length with another
    /// Last-Modified. With the checksum known before the first byte, the hash decides what the
    /// file is: the good source was dropped as "the file changed on the server", the checksum
    /// failed (exit 10), and every run after repeated it. With one connection and with segments.
    func testAStaleFirstSourceDoesNotDecideTheFileWhenTheChecksumIsKnown() throws {
        try assertAStaleFirstSourceIsDropped(serving: "&chunk=50000&ms=5")
    }

    /// `STALE<TAB>GOOD` with GOOD's checksum, `query` added to both URLs: with one connection
    /// and with `-s 4`, exit 0, GOOD's file, STALE dropped for its bytes once.
    private func assertAStaleFirstSourceIsDropped(serving query: String, line: UInt = #line) throws {
        let size = 1_500_000
        for (name, split) in [("one.bin", [String]()), ("split.bin", Self.split)] {
            let stale = server.url("/file/\(name)?size=\(size)&v=1&lmversion=1\(query)")
            let good = second.url("/file/\(name)?size=\(size)\(query)")
            let list = "\(stale)\t\(good)\n  checksum=sha-256=\(TestPayload.sha256(count: size))\n"
            try Data(list.utf8).write(to: directory.appendingPathComponent("list.txt"))
            let result = try Afget.run(["--progress", "line"] + split + ["-i", "list.txt"], in: directory)
            XCTAssertEqual(result.status, 0, "\(split): \(result.stderr)", line: line)
            XCTAssertEqual(sha(name), TestPayload.sha256(count: size), "\(split)", line: line)
            XCTAssertEqual(droppedForItsBytes(result.stderr, stale), 1, "\(split): \(result.stderr)", line: line)
            XCTAssertFalse(result.stderr.contains("changed on the server"), result.stderr, line: line)
            XCTAssertFalse(exists(directory.appendingPathComponent("\(name).afpart")), line: line)
        }
    }

    /// Servers that cannot send part of a file (python's http.server, nghttpd, SCP): the stale
    /// first source wrote the whole file, which fails the checksum; its bytes cannot be fetched
    /// again as ranges, so the file is fetched whole from the next source and checked whole: a
    /// match convicts the first. Before, the search ended there (exit 10), GOOD unused.
    func testAStaleSourceThatWroteTheWholeFileIsFoundWhereNoServerSendsRanges() throws {
        try assertAStaleFirstSourceIsDropped(serving: "&ranges=ignore")
    }

    /// Without a checksum the first answer fixes the file; a source serving another version is
    /// dropped saying which source it disagrees with, not that the file changed on a server.
    func testASourceThatDisagreesWithTheFirstIsDroppedNamingIt() throws {
        let size = 1_500_000
        let first = server.url("/file/d.bin?size=\(size)&v=1&lmversion=1&chunk=50000&ms=5")
        let other = second.url("/file/d.bin?size=\(size)&chunk=50000&ms=5")
        let result = try Afget.run(["--progress", "line"] + Self.split + ["--mirror", other, first], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("d.bin"), TestPayload.sha256(count: size, version: 1), "one version, the first source's")
        XCTAssertTrue(
            result.stderr.contains(
                "dropping source \(other) (it serves another version of the file than \(first) "
                    + "(Last-Modified \(Route.lastModified) where that gave \(Route.lastModified(version: 1))))"),
            result.stderr)
        XCTAssertFalse(result.stderr.contains("changed on the server"), result.stderr)
    }

    /// The second source serves other bytes: found and dropped the same way.
    func testABadSecondSourceIsFoundAndTheFileEndsExact() throws {
        let size = 1_500_000
        let good = server.url("/file/s.bin?size=\(size)&chunk=50000&ms=5")
        let bad = second.url("/file/s.bin?size=\(size)&v=1&chunk=50000&ms=5")
        let result = try Afget.run(Self.split + checksum(size) + ["--mirror", bad, good], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("s.bin"), TestPayload.sha256(count: size))
        XCTAssertGreaterThan(second.payloadBytesSent, 0, "the bad mirror served some of it")
        XCTAssertEqual(droppedForItsBytes(result.stderr, bad), 1, result.stderr)
        XCTAssertEqual(droppedForItsBytes(result.stderr, good), 0, result.stderr)
        XCTAssertEqual(listing(directory), ["s.bin"])
    }

    /// Every source serves other bytes: no source gives bytes that match, the item fails with
    /// exit 10, nothing is at DEST and the data is kept with its resume data.
    func testWhenEverySourceIsBadTheItemFailsWithTheDataKept() throws {
        let size = 1_000_000
        let first = server.url("/file/e.bin?size=\(size)&v=1")
        let other = second.url("/file/e.bin?size=\(size)&v=2")
        let result = try Afget.run(Self.split + checksum(size) + ["--mirror", other, first], in: directory)
        XCTAssertEqual(result.status, 10, result.stderr)
        XCTAssertTrue(result.stderr.contains("checksum mismatch"), result.stderr)
        XCTAssertTrue(result.stderr.contains("no source gave bytes that match"), result.stderr)
        XCTAssertFalse(result.stderr.contains("did not match the checksum"), "no source convicted: \(result.stderr)")
        XCTAssertEqual(listing(directory), ["e.bin.afpart", "e.bin.afresume"])
    }

    /// Ctrl-C with segments on two sources: the resume data holds both sources and which
    /// ranges came from each; the same command then ends the file exact.
    func testResumeDataRecordsTheSourcesAndTheSameCommandEndsExact() throws {
        let size = 6_000_000
        let path = "/file/c.bin?size=\(size)&chunk=30000&ms=50"
        let arguments = ["-q", "-s", "4", "--min-split-size", "256K", "--mirror", second.url(path), server.url(path)]
        let plist = try interrupted(arguments, name: "c.bin")
        XCTAssertEqual(plist["AFGetSources"] as? [String], [server.url(path), second.url(path)])
        let runs = try XCTUnwrap(plist["AFGetSourceRanges"] as? [[String: Any]], "\(plist)")
        XCTAssertEqual(Set(runs.compactMap { $0["source"] as? String }), [server.url(path), second.url(path)], "\(runs)")
        let held = try XCTUnwrap(segmentBytesHeld(directory.appendingPathComponent("c.bin.afresume")))
        let sentBefore = server.payloadBytesSent + second.payloadBytesSent
        let result = try Afget.run(arguments, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("c.bin"), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["c.bin"])
        // The continue asks for what the first run did not keep, and none of what it kept (bytes
        // in flight at the stop, sent but never written, are the only ones sent twice).
        let sentAfter = server.payloadBytesSent + second.payloadBytesSent
        XCTAssertLessThanOrEqual(sentAfter - sentBefore, size - held + size / 100, "held \(held)")
    }

    /// `afget resume` continues from the recorded sources: the mirror serves in the second run too.
    func testAfgetResumeContinuesFromEveryRecordedSource() throws {
        let size = 6_000_000
        let path = "/file/a.bin?size=\(size)&chunk=30000&ms=50"
        _ = try interrupted(
            ["-q", "-s", "4", "--min-split-size", "256K", "--mirror", second.url(path), server.url(path)], name: "a.bin")
        let before = second.log.all.count
        let result = try Afget.run(["resume", "-q", "-s", "4", "--min-split-size", "256K"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("a.bin"), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["a.bin"])
        XCTAssertFalse(second.log.all.dropFirst(before).isEmpty, "the mirror serves in the resumed run")
    }

    /// Who served what is known across runs: a bad first source's ranges of the first run are
    /// fetched again in the second, and the file ends exact.
    func testTheSourceAtFaultIsFoundAcrossRuns() throws {
        let size = 6_000_000
        let bad = server.url("/file/r.bin?size=\(size)&v=1&chunk=30000&ms=50")
        let good = second.url("/file/r.bin?size=\(size)&chunk=30000&ms=50")
        let arguments = ["-q", "-s", "4", "--min-split-size", "256K"] + checksum(size) + ["--mirror", good, bad]
        let plist = try interrupted(arguments, name: "r.bin")
        let runs = try XCTUnwrap(plist["AFGetSourceRanges"] as? [[String: Any]], "\(plist)")
        XCTAssertTrue(runs.contains { $0["source"] as? String == bad }, "\(runs)")
        let result = try Afget.run(arguments, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("r.bin"), TestPayload.sha256(count: size))
        XCTAssertEqual(droppedForItsBytes(result.stderr, bad), 1, result.stderr)
        XCTAssertEqual(listing(directory), ["r.bin"])
    }

    /// Runs `arguments`, stops it with SIGINT once both sources wrote some bytes, and returns the
    /// resume data's property list.
    private func interrupted(_ arguments: [String], name: String) throws -> [String: Any] {
        let (process, _, _) = try Afget.start(arguments, in: directory)
        let resumeData = directory.appendingPathComponent("\(name).afresume")
        waitUntil("resume data with segments and bytes from both sources") {
            let text = (try? String(contentsOf: resumeData, encoding: .utf8)) ?? ""
            return text.contains("AFGetSourceRanges") && (checkpointedBytes(resumeData) ?? 0) > 0
                && self.server.payloadBytesSent > 0 && self.second.payloadBytesSent > 0
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertFalse(exists(directory.appendingPathComponent(name)))
        let data = try Data(contentsOf: resumeData)
        return try XCTUnwrap(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }
}
