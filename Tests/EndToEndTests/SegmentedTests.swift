import Foundation
import Glibc
import TestServer
import XCTest

/// `-s`: one file over several ranged connections, re-split as connections finish, falling back
/// to one connection when ranges do not work, and continued exactly after Ctrl-C or SIGKILL.
final class SegmentedTests: ServerTestCase {
    private func startOffsets(_ requests: [RecordedRequest]) -> [Int] {
        requests.compactMap { $0.header("Range") }.compactMap {
            Int($0.dropFirst("bytes=".count).prefix { $0 != "-" })
        }
    }

    private func sha(_ name: String) -> String? {
        sha256Hex(ofFile: directory.appendingPathComponent(name).path)
    }

    /// The body drips (100 kB every 40 ms), so the first range is still running when the last
    /// segment starts, even on a busy machine (at 20 ms it once had ended, under the full suite).
    func testASplitDownloadIsExactAndUsesSeveralConnectionsAtOnce() throws {
        let size = 4_000_000
        let result = try Afget.run(
            [
                "-q", "-s", "4", "--min-split-size", "256K",
                server.url("/file/s.bin?size=\(size)&chunk=100000&ms=40"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("s.bin"), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["s.bin"])
        // Every request asks for a bounded range; the first (which learns the length) goes on as
        // the first segment, and the others continue its entity (If-Range).
        let requests = server.log.all
        let ranges = requests.map { $0.header("Range") ?? "-" }
        XCTAssertTrue(ranges.allSatisfy { $0.wholeMatch(of: /bytes=\d+-\d+/) != nil }, "\(ranges)")
        XCTAssertGreaterThanOrEqual(requests.count, 4, "\(ranges)")
        XCTAssertNil(requests.first?.header("If-Range"))
        XCTAssertTrue(requests.dropFirst().allSatisfy { $0.header("If-Range") == Route.etag(size: size) })
        XCTAssertGreaterThanOrEqual(server.mostConcurrentResponses, 4)
        XCTAssertEqual(server.payloadBytesSent, size, "no byte is sent twice")
    }

    /// A file too small to split whose first answer broke off: the retry continues it on one
    /// connection without a word about splitting (it said "the server answered a ranged request
    /// wrongly", which the server never did).
    func testARetriedSmallFileSaysNothingAboutOneConnection() throws {
        let size = 100_000
        let result = try Afget.run(
            ["--progress", "line", "-s", "4", "--retry-delay", "0", server.url("/flaky/r.bin?size=\(size)&fail=1&mode=drop")],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("r.bin"), TestPayload.sha256(count: size))
        XCTAssertEqual(server.log.all.count, 2, "one retry")
        XCTAssertNotNil(server.log.all.last?.header("Range"), "continued")
        XCTAssertFalse(result.stderr.contains("one connection"), result.stderr)
    }

    func testAFinishedConnectionTakesHalfOfTheLargestSegmentLeft() throws {
        let size = 2_000_000
        let result = try Afget.run(
            [
                "-q", "-s", "2", "--min-split-size", "64K",
                server.url("/file/t.bin?size=\(size)&slowfrom=1000000&chunk=40000&ms=40"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("t.bin"), TestPayload.sha256(count: size))
        let offsets = startOffsets(server.log.all)
        XCTAssertTrue(offsets.contains { $0 > 1_000_000 && $0 < size }, "a re-split inside the slow half: \(offsets)")
    }

    func testProgressCountsTheSegmentsTogetherAtARealSpeed() throws {
        // Four connections of about 2.5 MB/s each (50 kB every 20 ms): reports for about a second.
        let size = 8_000_000
        let result = try Afget.run(
            [
                "--progress", "json", "-s", "4", "--min-split-size", "256K",
                server.url("/file/p.bin?size=\(size)&chunk=50000&ms=20"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let progress = try result.stdoutText.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }.filter { $0["event"] as? String == "progress" }
        XCTAssertFalse(progress.isEmpty, result.stdoutText)
        let bytes = progress.compactMap { $0["bytes"] as? Int }
        XCTAssertEqual(bytes, bytes.sorted(), "progress never goes backwards")
        // The server sends about 10 MB/s in all: a speed reckoned between reports of one
        // round, microseconds apart, would be far above that.
        let speeds = progress.compactMap { ($0["speed"] as? NSNumber)?.doubleValue }
        XCTAssertEqual(speeds.count, progress.count)
        XCTAssertTrue(speeds.allSatisfy { $0 < 100_000_000 }, "speeds: \(speeds)")
        XCTAssertGreaterThan(speeds.first ?? 0, 0, "the first report has a speed too")
    }

    func testAFailedSegmentIsRetriedOnItsOwn() throws {
        let size = 3_000_000
        // The first ranged request is reset after 100 kB, inside whichever segment it is.
        let result = try Afget.run(
            [
                "--progress", "line", "--retry-delay", "0", "-s", "2", "--min-split-size", "256K",
                server.url(
                    "/flaky/r.bin?size=\(size)&fail=1&mode=reset&after=100000&rangedonly=1"
                        + "&chunk=100000&ms=20"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("r.bin"), TestPayload.sha256(count: size))
        XCTAssertTrue(result.stderr.contains("retrying"), result.stderr)
        XCTAssertFalse(result.stderr.contains("one connection from here"), result.stderr)
    }

    func testAServerThatIgnoresRangesFallsBackToOneConnection() throws {
        let size = 3_000_000
        let result = try Afget.run(
            [
                "--progress", "line", "-s", "4", "--min-split-size", "256K",
                server.url("/file/i.bin?size=\(size)&ranges=ignore&chunk=200000&ms=10"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("i.bin"), TestPayload.sha256(count: size))
        XCTAssertTrue(result.stderr.contains("i.bin: one connection: the server ignores ranges"), result.stderr)
        XCTAssertEqual(listing(directory), ["i.bin"])
        XCTAssertEqual(server.log.all.count, 1, "the whole file came in answer to the first range")
    }

    func testWithoutAValidatorItStaysOnOneConnectionAndSaysWhy() throws {
        let result = try Afget.run(
            [
                "-v", "-s", "4", "--min-split-size", "64K",
                server.url("/file/n.bin?size=1000000&noetag=1&nolm=1"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("n.bin: one connection: no ETag or Last-Modified"), result.stderr)
        // Its first range cannot be continued without a validator: the file comes again, whole.
        XCTAssertEqual(server.log.all.map { $0.header("Range") }, ["bytes=0-262143", nil])
        XCTAssertEqual(sha("n.bin"), TestPayload.sha256(count: 1_000_000))
    }

    func testStandardOutputStaysOnOneConnectionAndSaysWhy() throws {
        let result = try Afget.run(
            [
                "-v", "-s", "4", "--min-split-size", "64K", "-o", "-",
                server.url("/file/o.bin?size=1000000"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("one connection: standard output is written in order"), result.stderr)
        XCTAssertEqual(server.log.all.count, 1)
        XCTAssertEqual(sha256Hex(result.stdout), TestPayload.sha256(count: 1_000_000))
    }

    /// A segmented download stopped by `signal` once its resume data records segments, then the
    /// same command again: every byte exact, and only ranged requests the second time. After a
    /// signal afget can handle (`checkpointsAll`), every segment was checkpointed where it
    /// stopped, so the second run fetches only what the segments did not hold (bytes in flight
    /// when the signal came, sent but never written, are fetched again).
    private func assertStoppedAndContinued(by signal: Int32, expectedStatus: Int32?, checkpointsAll: Bool = false) throws {
        let size = 6_000_000
        let arguments = ["-q", "-s", "3", "--min-split-size", "256K", server.url("/file/k.bin?size=\(size)&chunk=30000&ms=50")]
        let (process, _, _) = try Afget.start(arguments, in: directory)
        let resumeData = directory.appendingPathComponent("k.bin.afresume")
        waitUntil("resume data with segments and bytes") {
            let text = (try? String(contentsOf: resumeData, encoding: .utf8)) ?? ""
            return text.contains("AFGetSegments") && (checkpointedBytes(resumeData) ?? 0) > 0
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        if let expectedStatus {
            XCTAssertEqual(process.terminationStatus, expectedStatus)
        }
        XCTAssertFalse(exists(directory.appendingPathComponent("k.bin")))
        let held = segmentBytesHeld(resumeData) ?? 0
        let sentBefore = server.payloadBytesSent
        let before = server.log.all.count
        let result = try Afget.run(arguments, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("k.bin"), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["k.bin"])
        let again = server.log.all.dropFirst(before)
        XCTAssertFalse(again.isEmpty)
        XCTAssertTrue(again.allSatisfy { $0.header("Range") != nil }, "the second run only asks for what is missing")
        if checkpointsAll {
            XCTAssertLessThanOrEqual(server.payloadBytesSent - sentBefore, size - held + size / 100, "held \(held)")
        }
    }

    func testCtrlCThenTheSameCommandIsExact() throws {
        try assertStoppedAndContinued(by: SIGINT, expectedStatus: 130, checkpointsAll: true)
    }

    func testMaxSizeCountsTheWholeFileNotItsFirstRange() throws {
        let result = try Afget.run(
            ["-q", "-s", "4", "--max-size", "1M", server.url("/file/big.bin?size=3000000")], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(result.stderr.contains("larger than --max-size"), result.stderr)
        XCTAssertEqual(listing(directory), [])
    }

    func testAnEmptyFileIsDownloadedWhenSplittingIsAsked() throws {
        let result = try Afget.run(["-q", "-s", "4", server.url("/file/empty.bin?size=0")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["empty.bin"])
        XCTAssertEqual(fileSize(directory.appendingPathComponent("empty.bin")), 0)
    }

    func testAFileBelowFourMinimumSegmentsComesWholeOnOneConnection() throws {
        let size = 1_000_000
        let result = try Afget.run(["--progress", "line", "-s", "4", server.url("/file/small.bin?size=\(size)")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("small.bin"), TestPayload.sha256(count: size))
        // One request, asking no more than 4 MiB (4 × the default --min-split-size), and no notice:
        // a small file on one connection is what anyone expects.
        XCTAssertEqual(server.log.all.map { $0.header("Range") }, ["bytes=0-4194303"])
        XCTAssertFalse(result.stderr.contains("one connection"), result.stderr)
        XCTAssertEqual(server.payloadBytesSent, size)
    }

    /// The body is dripped over about a second, so the third segment asks while two are served
    /// even on a machine busy enough to start the segments slowly.
    func testAServerThatCapsConnectionsGetsWhatItAllowsAndSaysSoOnce() throws {
        let size = 4_000_000
        let result = try Afget.run(
            [
                "--progress", "line", "-s", "4", "--min-split-size", "128K", "--retry-delay", "0",
                server.url("/file/c.bin?size=\(size)&maxconn=2&chunk=100000&ms=30"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("c.bin"), TestPayload.sha256(count: size))
        XCTAssertEqual(
            result.stderr.components(separatedBy: "the server takes 2 connections at once").count - 1, 1, result.stderr)
        XCTAssertFalse(result.stderr.contains("retrying"), "a refused connection is not a failure to retry: \(result.stderr)")
        XCTAssertEqual(server.payloadBytesSent, size)
    }

    func testSIGKILLThenTheSameCommandIsExact() throws {
        try assertStoppedAndContinued(by: SIGKILL, expectedStatus: nil)
    }

    func testSegmentsWorkInsideABatch() throws {
        let sizes = [900_000, 1_500_000, 2_100_000]
        let list = sizes.enumerated().map { server.url("/file/b\($0.offset).bin?size=\($0.element)&chunk=100000&ms=10") }
            .joined(separator: "\n")
        try list.write(to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        let result = try Afget.run(
            ["-q", "-j", "2", "-s", "3", "--min-split-size", "128K", "-i", "list.txt", "-d", "out"],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        for (index, size) in sizes.enumerated() {
            XCTAssertEqual(sha("out/b\(index).bin"), TestPayload.sha256(count: size))
        }
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), ["b0.bin", "b1.bin", "b2.bin"])
    }
}

/// `-s` against a server that speaks HTTP/2 alone over TLS (as nghttpd does): split requests
/// offered only HTTP/1.1 and every attempt failed ("Empty reply from server"), where one
/// connection succeeded. Each segment now has a connection of its own, speaking HTTP/2.
final class SplitOverHTTP2Tests: XCTestCase {
    func testAServerThatSpeaksOnlyHTTP2IsSplitOverSeveralConnections() throws {
        let certificates = TestCertificates.shared
        let server = try TestHTTPServer(tls: certificates.good, http2Only: true)
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let size = 4_000_000
        let result = try Afget.run(
            [
                "-q", "--retry", "0", "-s", "4", "--min-split-size", "256K", "--cacert", certificates.caPath,
                server.url("/file/h2.bin?size=\(size)&chunk=100000&ms=20"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("h2.bin").path), TestPayload.sha256(count: size))
        let ranges = server.log.all.map { $0.header("Range") ?? "-" }
        XCTAssertTrue(ranges.allSatisfy { $0.wholeMatch(of: /bytes=\d+-\d+/) != nil }, "\(ranges)")
        XCTAssertGreaterThanOrEqual(server.mostConcurrentResponses, 2, "segments at once")
        XCTAssertGreaterThanOrEqual(server.connectionsAccepted, 4, "a connection per segment, not streams on one")
        XCTAssertEqual(server.payloadBytesSent, size, "no byte is sent twice")
    }
}
