import Foundation
import Glibc
import TestServer
import XCTest

/// `afget upload`: PUT and multipart uploads, progress, early answers, retries, memory.
final class UploadTests: ServerTestCase {
    /// A file of `size` known bytes in the test directory; returns its SHA-256.
    @discardableResult
    private func makeFile(_ name: String, size: Int) throws -> String {
        let data = Data(TestPayload.bytes(0..<size))
        try data.write(to: directory.appendingPathComponent(name))
        return sha256Hex(data)
    }

    func testAFileIsPutAndTheResponseGoesToStdout() throws {
        let sha = try makeFile("data.bin", size: 3_000_000)
        let result = try Afget.run(["upload", "-q", "data.bin", server.url("/upload")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, "3000000 \(sha)\n")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(server.log.all.map(\.method), ["PUT"])
    }

    /// `--limit-rate` holds an upload back too (it was ignored there). A lower bound only:
    /// 1.5 MB at 1 MiB/s cannot be sent in less than about 1.4 s, whatever the machine.
    func testLimitRateHoldsAnUploadBack() throws {
        let sha = try makeFile("paced.bin", size: 1_500_000)
        let started = Date()
        let result = try Afget.run(["upload", "-q", "--limit-rate", "1M", "paced.bin", server.url("/upload")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.2)
        XCTAssertEqual(result.stdoutText, "1500000 \(sha)\n")
    }

    func testOnlyABodyOfAMebibyteOrMoreWaitsFor100Continue() throws {
        try makeFile("small.bin", size: 1000)
        try makeFile("large.bin", size: 1 << 20)
        let result = try Afget.run(["upload", "-q", "small.bin", "large.bin", server.url("/upload/")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.map { $0.header("Expect") }, [nil, "100-continue"])
        let asked = try Afget.run(
            ["upload", "-q", "-H", "Expect: 100-continue", "small.bin", server.url("/upload/")], in: directory)
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssertEqual(server.log.all.last?.header("Expect"), "100-continue", "the user's header wins")
    }

    func testAURLEndingInASlashGetsEachFilesName() throws {
        try makeFile("one.txt", size: 10)
        try makeFile("two words.txt", size: 20)
        let result = try Afget.run(
            [
                "upload", "--progress", "json", "--method", "post", "one.txt", "two words.txt",
                server.url("/echo/in/"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.map(\.uri), ["/echo/in/one.txt", "/echo/in/two%20words.txt"])
        let done = result.stderrLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "done" }
        XCTAssertEqual(
            done.compactMap { $0["url"] as? String }, [server.url("/echo/in/one.txt"), server.url("/echo/in/two%20words.txt")],
            "events name the URL each file went to")
        XCTAssertEqual(server.log.all.map(\.method), ["POST", "POST"])
        XCTAssertEqual(server.log.all.map(\.bodyCount), [10, 20])
    }

    /// In a file's name a `?` is part of the name: unescaped it started a query, and the server
    /// stored the file as `what` with the query `.txt`.
    func testAFilesNameIsEscapedAsOnePathSegment() throws {
        try makeFile("what?#.txt", size: 5)
        let result = try Afget.run(["upload", "-q", "what?#.txt", server.url("/echo/in/")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.map(\.uri), ["/echo/in/what%3F%23.txt"])
    }

    func testAMultipartUploadWithExtraFields() throws {
        try Data("hello file\n".utf8).write(to: directory.appendingPathComponent("note.txt"))
        let result = try Afget.run(
            [
                "upload", "-q", "--method", "POST", "--field", "attachment", "note.txt", "title=Q3 plan",
                server.url("/echo"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let body = try XCTUnwrap(echo["body"] as? String)
        XCTAssertTrue(body.contains("Content-Disposition: form-data; name=\"title\"\r\n\r\nQ3 plan\r\n"), body)
        XCTAssertTrue(
            body.contains("name=\"attachment\"; filename=\"note.txt\"\r\nContent-Type: text/plain\r\n\r\nhello file\n\r\n"), body)
        let contentType = (echo["headers"] as? [String: String])?["content-type"] ?? ""
        XCTAssertTrue(contentType.hasPrefix("multipart/form-data; boundary="), contentType)
    }

    func testStandardInputIsStreamed() throws {
        let data = Data(TestPayload.bytes(0..<2_500_000))
        let result = try Afget.run(["upload", "-q", "-", server.url("/upload")], in: directory, input: data)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, "2500000 \(sha256Hex(data))\n")
        XCTAssertEqual(server.log.all.first?.header("Transfer-Encoding"), "chunked")
    }

    /// Standard input is named "(stdin)", not "(stdout)" as "-" is wherever afget writes, and
    /// its bytes are the body's: libcurl's count included the chunked framing (6 B went as 16).
    func testStandardInputIsNamedAndCountedAsTheBody() throws {
        let result = try Afget.run(
            ["upload", "--progress", "line", "-", server.url("/upload")], in: directory,
            input: Data("hello\n".utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderrLines.contains { $0.hasPrefix("(stdin): done, 6 B in ") }, result.stderr)
        let unreadable = try runShell("exec '\(Afget.binary.path)' upload -q - '\(server.url("/upload"))' <&-", in: directory)
        XCTAssertEqual(unreadable.status, 3, unreadable.stderr)
        XCTAssertTrue(
            unreadable.stderr.contains("afget: (stdin): cannot read the request body: Bad file descriptor"), unreadable.stderr)
    }

    /// A Content-Length the user gives is the body's framing: standard input went chunked
    /// beside it, which no server can read both ways. The body must have that length.
    func testAContentLengthGivenIsSentAtThatLengthNotChunked() throws {
        let data = Data(TestPayload.bytes(0..<100_000))
        let result = try Afget.run(
            ["upload", "-q", "-H", "Content-Length: 100000", "-", server.url("/echo")],
            in: directory, input: data)
        XCTAssertEqual(result.status, 0, result.stderr)
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let headers = echo["headers"] as? [String: String] ?? [:]
        XCTAssertEqual(headers["content-length"], "100000")
        XCTAssertNil(headers["transfer-encoding"])
        XCTAssertEqual(echo["bodySHA256"] as? String, sha256Hex(data))

        let short = try Afget.run(
            ["upload", "-q", "-H", "Content-Length: 100001", "-", server.url("/upload")],
            in: directory, input: data)
        XCTAssertEqual(short.status, 2, short.stderr)
        XCTAssertEqual(
            short.stderrLines,
            [
                "afget: (stdin): standard input ended after 100000 of the 100001 bytes "
                    + "Content-Length announces"
            ])

        try makeFile("data.bin", size: 1000)
        let count = server.log.all.count
        let mismatch = try Afget.run(
            ["upload", "-q", "-H", "Content-Length: 999", "data.bin", server.url("/upload")],
            in: directory)
        XCTAssertEqual(mismatch.status, 2, mismatch.stderr)
        XCTAssertEqual(mismatch.stderrLines, ["afget: data.bin: Content-Length: 999 does not match the body's 1000 bytes"])
        let word = try Afget.run(["upload", "-q", "-H", "Content-Length: ten", "data.bin", server.url("/upload")], in: directory)
        XCTAssertEqual(word.status, 2, word.stderr)
        XCTAssertEqual(word.stderrLines, ["afget: data.bin: Content-Length: ten is not a byte count"])
        let both = try Afget.run(
            [
                "upload", "-q", "-H", "Content-Length: 1000", "-H", "Transfer-Encoding: chunked", "data.bin",
                server.url("/upload"),
            ], in: directory)
        XCTAssertEqual(both.status, 2, both.stderr)
        XCTAssertEqual(both.stderrLines, ["afget: data.bin: Content-Length and Transfer-Encoding cannot both be sent"])
        XCTAssertEqual(server.log.all.count, count, "nothing sent")
    }

    /// A sparse file of `size` zeros: large without time spent writing it.
    private func makeSparseFile(_ name: String, size: Int) throws {
        let path = directory.appendingPathComponent(name).path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        XCTAssertEqual(truncate(path, off_t(size)), 0)
    }

    func testAnEarlyRejectionEndsTheUploadPromptly() throws {
        try makeSparseFile("big.bin", size: 1 << 30)
        let tooLarge = try Afget.run(["upload", "-q", "big.bin", server.url("/reject?status=413")], in: directory)
        XCTAssertEqual(tooLarge.status, 8)
        XCTAssertEqual(tooLarge.stdoutText, "rejected\n")
        XCTAssertEqual(tooLarge.stderrLines.count, 1, tooLarge.stderr)
        XCTAssertTrue(tooLarge.stderr.contains("413"), tooLarge.stderr)
        let refused = try Afget.run(["upload", "-q", "-u", "ann:x", "big.bin", server.url("/reject?status=401")], in: directory)
        XCTAssertEqual(refused.status, 6, refused.stderr)
        try makeFile("small.bin", size: 1000)
        let small = try Afget.run(["upload", "-q", "small.bin", server.url("/reject?status=413")], in: directory)
        XCTAssertEqual(small.status, 8, small.stderr)
    }

    func testAResetUploadIsSentAgainFromTheStart() throws {
        let sha = try makeFile("data.bin", size: 4_000_000)
        let result = try Afget.run(
            [
                "upload", "--progress", "line", "--retry-delay", "0", "data.bin",
                server.url("/flaky-upload/d?fail=1"),
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, "4000000 \(sha)\n")
        XCTAssertTrue(result.stderr.contains("retrying"), result.stderr)
        XCTAssertEqual(server.log.all.map(\.bodyCount), [0, 4_000_000], "reset as the body started, then sent whole")
    }

    func testJSONProgressCountsBytesSent() throws {
        try makeFile("data.bin", size: 5_000_000)
        let result = try Afget.run(["upload", "--progress", "json", "data.bin", server.url("/upload")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = result.stderrLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(events.count, result.stderrLines.count, "every line is JSON: \(result.stderr)")
        XCTAssertEqual(events.first?["event"] as? String, "queued")
        let done = try XCTUnwrap(events.first { $0["event"] as? String == "done" })
        XCTAssertEqual(done["bytes"] as? Int, 5_000_000)
        XCTAssertEqual(events.last?["event"] as? String, "summary")
        XCTAssertEqual(events.last?["uploaded"] as? Int, 1)
    }

    func testMissingFilesFailAloneWithExit3() throws {
        try makeFile("here.bin", size: 100)
        let result = try Afget.run(["upload", "-q", "gone.bin", "here.bin", server.url("/upload/")], in: directory)
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(result.stderrLines.first, "afget: gone.bin: No such file or directory")
        XCTAssertTrue(result.stderrLines.last?.hasPrefix("afget: 1 uploaded, 0 skipped, 1 failed; ") == true, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 2, result.stderr)
        XCTAssertEqual(server.log.all.count, 1, "the other file is still sent")
    }

    /// Several files PUT to one URL would each replace the last: refused before sending any.
    func testSeveralFilesAreNotPutToOneURL() throws {
        try makeFile("a.bin", size: 10)
        try makeFile("b.bin", size: 20)
        let result = try Afget.run(["upload", "-q", "a.bin", "b.bin", server.url("/upload")], in: directory)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("end the URL with /"), result.stderr)
        XCTAssertEqual(server.log.all.count, 0)
    }

    func testMemoryStaysFlatForALargeUploadAndALargeFormField() throws {
        let size = 384 << 20
        try makeSparseFile("large.bin", size: size)
        for options in [[], ["--method", "POST", "--field", "file"]] {
            let (process, stdout, _) = try Afget.start(
                ["upload", "-q"] + options + ["large.bin", server.url("/upload")],
                in: directory)
            var peakKiB = 0
            while process.isRunning {
                peakKiB = max(peakKiB, residentKiB(of: process.processIdentifier) ?? 0)
                usleep(20_000)
            }
            XCTAssertEqual(process.terminationStatus, 0, "\(options)")
            let received = String(decoding: try Data(contentsOf: stdout), as: UTF8.self)
            let count = Int(received.prefix { $0 != " " }) ?? 0
            // The form adds its boundaries and part headers (a few hundred bytes) around the file.
            XCTAssertTrue(options.isEmpty ? count == size : (size + 1)..<(size + 1000) ~= count, received)
            XCTAssertGreaterThan(peakKiB, 0)
            XCTAssertLessThan(peakKiB, 64 << 10, "peak resident memory \(peakKiB) KiB for a \(size >> 20) MiB upload \(options)")
        }
    }

    /// VmHWM (peak resident set) of a running process, from /proc.
    private func residentKiB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }
}

/// An upload read from standard input cannot be read again: once part of it went out, a
/// failed attempt is not retried (the bytes already read would be missing from the second
/// attempt), and the failure says so.
final class StandardInputUploadRetryTests: ServerTestCase {
    func testAStandardInputUploadIsNotSentAgainAfterPartOfItWasRead() throws {
        let data = Data(TestPayload.bytes(0..<300_000))
        let result = try Afget.run(
            ["upload", "-q", "--retry", "3", "--retry-delay", "0", "-", server.url("/flaky-upload/in?fail=1")],
            in: directory, input: data)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(server.log.all.count, 1, "not sent again")
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("afget: (stdin): "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("(not sent again: standard input is read once, as it is sent)\n"), result.stderr)
    }
}
