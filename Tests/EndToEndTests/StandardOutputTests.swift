import Foundation
import TestServer
import XCTest

/// `-o -` and every kind of standard output a shell gives: a body goes where the descriptor's
/// own offset is (after whatever the shell or an earlier program wrote), is never written
/// twice, and a reader that goes away ends afget quietly with 141, as it ends `cat`.
final class StandardOutputTests: ServerTestCase {
    private var afget: String { "'\(Afget.binary.path)'" }

    private func bash(_ command: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try runProgram(
            "/bin/bash", ["-c", command], in: directory, environment: ["XDG_CONFIG_HOME": "/nonexistent/afget-tests"])
        return (run.status, run.stdout, run.stderr)
    }

    private func contents(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Two runs in a loop whose output the shell sent to one file: the second body follows the
    /// first (it was written at offset 0, over the first).
    func testRunsInALoopFollowOneAnotherInAFileOpenedWithGreaterThan() throws {
        let first = server.url("/file/a.bin?size=1000")
        let second = server.url("/file/b.bin?size=3000")
        let run = try bash("for u in '\(first)' '\(second)'; do \(afget) -q -o - \"$u\"; done > both.bin")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try contents("both.bin"), TestPayload.bytes(0..<1000) + TestPayload.bytes(0..<3000))
    }

    /// What a program wrote before afget stays: afget goes on from where the file's offset is.
    func testWhatTheShellWroteBeforeStays() throws {
        let url = server.url("/file/s.bin?size=5000")
        let run = try bash("(echo X; \(afget) -q -o - '\(url)'; echo Y) > s.bin")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try contents("s.bin"), Array("X\n".utf8) + TestPayload.bytes(0..<5000) + Array("Y\n".utf8))

        let appended = try bash("printf 'kept\\n' > t.bin && \(afget) -q -o - '\(url)' >> t.bin")
        XCTAssertEqual(appended.status, 0, appended.stderr)
        XCTAssertEqual(try contents("t.bin"), Array("kept\n".utf8) + TestPayload.bytes(0..<5000))

        // `-o /dev/stdout` is the same stream, not the file opened again from its start.
        let named = try bash("(echo X; \(afget) -q -o /dev/stdout '\(url)') > n.bin")
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try contents("n.bin"), Array("X\n".utf8) + TestPayload.bytes(0..<5000))
    }

    func testAPipeAndDevNullTakeTheBody() throws {
        let url = server.url("/file/s.bin?size=300000")
        let piped = try bash("set -o pipefail; \(afget) -q -o - '\(url)' | sha256sum")
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, "\(TestPayload.sha256(count: 300_000))  -\n")
        let discarded = try bash("\(afget) -q -o - '\(url)' > /dev/null && \(afget) -q -o /dev/null '\(url)'")
        XCTAssertEqual(discarded.status, 0, discarded.stderr)
        XCTAssertEqual(discarded.stderr, "")
        XCTAssertEqual(listing(directory), [])
    }

    func testATerminalShowsTheBody() throws {
        server.publish(Array("hello from the server\n".utf8), at: "/site/example.org/hello.txt")
        let url = server.url("/site/example.org/hello.txt")
        let run = try runInPseudoTerminal("\(afget) -q -o - '\(url)'", in: directory)
        XCTAssertEqual(run.status, 0, run.drawn)
        XCTAssertEqual(run.drawn.replacingOccurrences(of: "\r\n", with: "\n"), "hello from the server\n")
    }

    /// `afget -o - URL | head -c 10`: the reader took what it wanted and left; afget ends at
    /// once with 141, as a program that SIGPIPE ends, and says nothing (it said "cannot write
    /// standard output: Broken pipe" and exited 3).
    func testAReaderThatGoesAwayEndsAfgetQuietlyWith141() throws {
        let url = server.url("/file/big.bin?size=\(2 << 20)")
        for progress in ["-q", "--progress=line"] {
            let run = try bash("\(afget) \(progress) -o - '\(url)' | head -c 10 > head.bin; echo \"${PIPESTATUS[0]}\"")
            XCTAssertEqual(run.stdout, "141\n", run.stderr)
            XCTAssertFalse(run.stderr.contains("pipe"), run.stderr)
            XCTAssertFalse(run.stderr.contains("interrupted"), run.stderr)
            XCTAssertEqual(try contents("head.bin"), TestPayload.bytes(0..<10))
        }
        // A response printed by `afget request` ends the same way.
        let request = try bash("\(afget) request '\(url)' | head -c 10 > /dev/null; echo \"${PIPESTATUS[0]}\"")
        XCTAssertEqual(request.stdout, "141\n", request.stderr)
        XCTAssertEqual(request.stderr, "")
    }

    /// `afget request -o /dev/stdout` writes where the shell's file is, not over it.
    func testARequestIntoDevStdoutKeepsWhatWasThere() throws {
        let url = server.url("/file/r.bin?size=2000")
        let run = try bash("(echo X; \(afget) request -o /dev/stdout '\(url)') > r.bin")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try contents("r.bin"), Array("X\n".utf8) + TestPayload.bytes(0..<2000))
    }

    // MARK: Retries of a stream

    /// A connection dropped after half the body went to stdout: the rest is asked for by a range
    /// the ETag ties to the same file, and stdout holds the file once (it was not retried at all).
    func testADroppedStreamContinuesByRangeFromWhereItIs() throws {
        let size = 400_000
        let url = server.url("/flaky/drop.bin?size=\(size)&fail=1&mode=drop")
        let run = try bash("\(afget) -q --retry 2 --retry-delay 0 -o - '\(url)' > out.bin")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try contents("out.bin"), TestPayload.bytes(0..<size))
        let requests = server.log.all
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.last?.header("Range"), "bytes=\(size / 2)-")
        XCTAssertNotNil(requests.last?.header("If-Range"))
    }

    /// Before its first byte a stream is retried as a file is: a 503 first, then the body once.
    func testAStreamIsRetriedBeforeItsFirstByte() throws {
        let url = server.url("/flaky/busy.bin?size=100000&fail=1&mode=503")
        let run = try bash("\(afget) -q --retry 2 --retry-delay 0 -o - '\(url)' > out.bin")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try contents("out.bin"), TestPayload.bytes(0..<100_000))
        XCTAssertEqual(server.log.all.count, 2)
        XCTAssertNil(server.log.all.last?.header("Range"))
    }

    /// A stream dropped half way (`query` adds to `/flaky/NAME?...&mode=drop`) that cannot go on:
    /// exit `status`, one line saying each of `phrases`, and standard output holding the half
    /// that came, once.
    private func assertADroppedStreamEnds(
        _ name: String, _ query: String, status: Int32, saying phrases: [String], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let size = 400_000
        let url = server.url("/flaky/\(name)?size=\(size)&fail=1&mode=drop\(query)")
        let run = try bash("\(afget) -q --retry 2 --retry-delay 0 -o - '\(url)' > out.bin")
        XCTAssertEqual(run.status, status, run.stderr, file: file, line: line)
        XCTAssertEqual(try contents("out.bin"), TestPayload.bytes(0..<size / 2), file: file, line: line)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr, file: file, line: line)
        for phrase in phrases {
            XCTAssertTrue(run.stderr.contains(phrase), "\(phrase): \(run.stderr)", file: file, line: line)
        }
    }

    /// With no validator the rest cannot be asked for safely: the run fails, saying so, and
    /// stdout holds the bytes that came, once.
    func testAStreamWithoutAValidatorIsNotWrittenTwice() throws {
        try assertADroppedStreamEnds(
            "bare.bin", "&noetag=1&nolm=1", status: 4,
            saying: ["200000 bytes already went to standard output", "not tried again"])
        XCTAssertEqual(server.log.all.count, 1)
    }

    /// A server that answers the continue with the whole file: the stream is not started over
    /// (its first half would be written twice); exit 9, saying why.
    func testAStreamWhoseContinueGetsTheWholeFileFails() throws {
        try assertADroppedStreamEnds(
            "whole.bin", "&ranges=ignore", status: 9, saying: ["cannot continue standard output", "not written again"])
    }
}
