import Foundation
import TestServer
import XCTest

/// A continue never splices: every way a server or the files on disk can disagree.
final class ContinueValidationTests: ServerTestCase {
    let size = 3_000_000

    private var url: String { server.url("/flaky/f.bin?size=\(size)&fail=1&mode=drop") }
    private var destination: URL { directory.appendingPathComponent("f.bin") }
    private var part: URL { directory.appendingPathComponent("f.bin.afpart") }
    private var resumeData: URL { directory.appendingPathComponent("f.bin.afresume") }

    /// A first run cut off half way, without retries: part file and resume data left behind.
    private func leaveHalfADownload() throws {
        try leaveHalfADownload(of: url, named: "f.bin", size: size)
    }

    private func afget(_ extra: [String] = []) throws -> AfgetResult {
        try Afget.run(["--progress", "line", "--retry-delay", "0"] + extra + [url], in: directory)
    }

    func testDroppedConnectionIsRetriedFromTheBytesReceived() throws {
        let result = try afget()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(server.log.all.map { $0.header("Range") }, [nil, "bytes=\(size / 2)-"])
        XCTAssertTrue(result.stderr.contains("retrying in 0.0 s (attempt 2)"), result.stderr)
    }

    func testResetMidBodyIsRetried() throws {
        let result = try Afget.run(
            ["-q", "--retry-delay", "0", server.url("/flaky/f.bin?size=\(size)&fail=2&mode=reset")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(server.log.all.count, 3)
    }

    func testServerErrorsAreRetriedAndRetryAfterIsHonoured() throws {
        let started = Date()
        let result = try Afget.run(
            ["-q", "--retry-delay", "0", server.url("/flaky/f.bin?size=\(size)&fail=1&mode=503&retryafter=1")], in: directory)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertGreaterThanOrEqual(elapsed, 1, "Retry-After: 1 outweighs --retry-delay 0")
        XCTAssertLessThan(elapsed, 10)
    }

    func testRetryAfterBeyondFiveMinutesFailsSayingWhen() throws {
        let result = try Afget.run(
            ["-q", server.url("/flaky/f.bin?size=\(size)&fail=1&mode=429&retryafter=3600")], in: directory)
        XCTAssertEqual(result.status, 8)
        XCTAssertTrue(result.stderr.contains("the server asks to retry after 3600 s"), result.stderr)
        XCTAssertEqual(server.log.all.count, 1)
    }

    func testRetriesRunOutWithANetworkFailure() throws {
        let result = try Afget.run(
            ["-q", "--retry", "2", "--retry-delay", "0", server.url("/flaky/f.bin?size=\(size)&fail=9&mode=drop")], in: directory)
        XCTAssertEqual(result.status, 4)
        XCTAssertTrue(result.stderr.contains("(after 3 attempts)"), result.stderr)
        XCTAssertEqual(server.log.all.count, 3)
        XCTAssertFalse(exists(destination))
    }

    func testClientErrorsAreNotRetried() throws {
        let result = try Afget.run(["-q", server.url("/status/403")], in: directory)
        XCTAssertEqual(result.status, 8)
        XCTAssertEqual(server.log.all.count, 1)
    }

    func testServerIgnoringRangeMeansStartingOver() throws {
        try leaveHalfADownload()
        server.change("f.bin", ["ranges": "ignore"])
        let result = try afget()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertTrue(result.stderr.contains("starting over"), result.stderr)
    }

    func testNoRestartRefusesAndTouchesNothing() throws {
        try leaveHalfADownload()
        let plist = try Data(contentsOf: resumeData)
        server.change("f.bin", ["ranges": "ignore"])
        let result = try afget(["--no-restart"])
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertTrue(result.stderr.contains("--no-restart"), result.stderr)
        XCTAssertEqual(fileSize(part), size / 2)
        XCTAssertEqual(try Data(contentsOf: resumeData), plist)
        XCTAssertFalse(exists(destination))
    }

    func testChangedFileIsDownloadedAgainWhenTheServerHonoursIfRange() throws {
        try leaveHalfADownload()
        server.change("f.bin", ["v": "1"])
        let result = try afget()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size, version: 1))
        XCTAssertEqual(server.log.all.last?.header("If-Range"), Route.etag(size: size))
    }

    func testChangedFileIsNotSplicedWhenTheServerWronglySends206() throws {
        try leaveHalfADownload()
        server.change("f.bin", ["v": "1", "ranges": "always"])
        let result = try afget()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size, version: 1))
        XCTAssertTrue(result.stderr.contains("the file changed"), result.stderr)
    }

    func testLengthChangeIsCaughtFromContentRange() throws {
        try leaveHalfADownload()
        server.change("f.bin", ["size": "\(size + 10)", "noetag": "1", "ranges": "always"])
        let result = try afget(["--no-restart"])
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertTrue(result.stderr.contains("length changed from \(size) to \(size + 10)"), result.stderr)
        XCTAssertEqual(fileSize(part), size / 2)
    }

    func testWrongContentRangeIsNeverSpliced() throws {
        try leaveHalfADownload()
        server.change("f.bin", ["ranges": "wrong"])
        let result = try afget()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertTrue(result.stderr.contains("does not continue at byte \(size / 2)"), result.stderr)
    }

    func testCompletePartIsFinishedBy416() throws {
        try leaveHalfADownload()
        // The rest of the file arrived but the process died before the move: a complete part.
        let handle = try FileHandle(forWritingTo: part)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(TestPayload.bytes((size / 2)..<size)))
        try handle.close()
        let plist = try String(contentsOf: resumeData, encoding: .utf8)
            .replacingOccurrences(of: "<integer>\(size / 2)</integer>", with: "<integer>\(size)</integer>")
        try plist.write(to: resumeData, atomically: true, encoding: .utf8)

        let result = try afget()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.last?.header("Range"), "bytes=\(size)-")
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["f.bin"])
    }

    /// A 416 whose validators show no change (here: no ETag, the same Last-Modified) with a
    /// smaller total: the part cannot be this file's, and is never truncated silently. (A 416
    /// that shows a change starts over: MisbehavingServerTests.)
    func testPartLargerThanTheRemoteFileIsAConflict() throws {
        try leaveHalfADownload()
        server.change("f.bin", ["size": "1000", "ranges": "always", "noetag": "1"])
        let result = try afget()
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertTrue(result.stderr.contains("is larger than the remote file (1000 bytes)"), result.stderr)
        XCTAssertEqual(fileSize(part), size / 2, "never truncated silently")
    }

    func testPlistClaimingMoreThanThePartIsCorrectedDown() throws {
        try leaveHalfADownload()
        let plist = try String(contentsOf: resumeData, encoding: .utf8)
            .replacingOccurrences(of: "<integer>\(size / 2)</integer>", with: "<integer>\(size / 2 + 5000)</integer>")
        try plist.write(to: resumeData, atomically: true, encoding: .utf8)
        let result = try afget()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.last?.header("Range"), "bytes=\(size / 2)-")
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
    }

    func testLyingContentLengthNeverMakesAFile() throws {
        let result = try Afget.run(["-q", "--retry", "0", server.url("/file/liar.bin?size=1000&claim=5000")], in: directory)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertFalse(exists(directory.appendingPathComponent("liar.bin")))
    }

    func testUnusableResumeDataExits9AndTouchesNothing() throws {
        try leaveHalfADownload()
        let good = try String(contentsOf: resumeData, encoding: .utf8)
        let variants: [(String, String)] = [
            ("garbage", "this is not a plist"),
            ("string count", good.replacingOccurrences(of: "<integer>\(size / 2)</integer>", with: "<string>lots</string>")),
            ("negative count", good.replacingOccurrences(of: "<integer>\(size / 2)</integer>", with: "<integer>-5</integer>")),
            (
                "path in temp name",
                good.replacingOccurrences(of: "<string>f.bin.afpart</string>", with: "<string>../../etc/passwd</string>")
            ),
            (
                "newer format",
                good.replacingOccurrences(
                    of: "<key>NSURLSessionResumeInfoVersion</key>\n\t<integer>1</integer>",
                    with: "<key>NSURLSessionResumeInfoVersion</key>\n\t<integer>99</integer>")
            ),
            ("gopher URL", good.replacingOccurrences(of: "<string>http://", with: "<string>gopher://")),
            // Foundation's XML reader recursed once per level and overflowed the stack (SIGSEGV).
            (
                "deep nesting",
                "<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array>", count: 60_000)
                    + String(repeating: "</array>", count: 60_000) + "</plist>"
            ),
            ("binary", "bplist00"),
        ]
        for (name, text) in variants {
            XCTAssertNotEqual(text, good, name)
            try text.write(to: resumeData, atomically: true, encoding: .utf8)
            let result = try afget()
            XCTAssertEqual(result.status, 9, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stderrLines.count, 1, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("afget: f.bin: f.bin.afresume "), "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasSuffix("; use --restart to start over\n"), "says the way out: \(result.stderr)")
            XCTAssertEqual(fileSize(part), size / 2, name)
            XCTAssertEqual(try String(contentsOf: resumeData, encoding: .utf8), text, name)
        }
        let resumed = try Afget.run(["resume", "-q"], in: directory)
        XCTAssertEqual(resumed.status, 9, resumed.stderr)
        XCTAssertEqual(resumed.stderrLines.count, 1, resumed.stderr)
        XCTAssertTrue(resumed.stderr.hasPrefix("afget: f.bin: f.bin.afresume "), resumed.stderr)
        XCTAssertTrue(
            resumed.stderr.hasSuffix("; run the command that started it again with --restart to start over\n"),
            "the resume command has no URL to start over from: \(resumed.stderr)")
        XCTAssertEqual(fileSize(part), size / 2)
        let restarted = try afget(["--restart"])
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["f.bin"])
    }

    /// Resume data afget may not read is a local file problem (exit 3), to be fixed where it is,
    /// not unusable data to discard with --restart. Needs another user than root, who reads all.
    func testUnreadableResumeDataIsALocalFileError() throws {
        let setpriv = "/usr/bin/setpriv"
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else {
            throw XCTSkip("needs root and setpriv to run afget as nobody")
        }
        try leaveHalfADownload()  // as root: the part and resume data are 0600, unreadable to nobody
        // The part file is opened (and locked) first: it is made writable, so what is refused is the resume data.
        XCTAssertEqual(chmod(part.path, 0o666), 0)
        let result = try Afget.run(
            ["-q", url], in: directory,
            launcher: [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertEqual(result.stderr, "afget: f.bin: cannot read f.bin.afresume: Permission denied\n")
        XCTAssertEqual(fileSize(part), size / 2)
        XCTAssertEqual(checkpointedBytes(resumeData), size / 2)
    }

    /// `afget resume` on a path it cannot use says why in one line (exit 3). A directory it may
    /// not read used to be "nothing to resume", exit 0, which a script takes for done.
    func testResumeOnPathsItCannotUseSaysWhy() throws {
        let missing = try Afget.run(["resume", "gone"], in: directory)
        XCTAssertEqual(missing.status, 3)
        XCTAssertEqual(missing.stderrLines, ["afget: gone: no such file or directory"])

        let odd = directory.appendingPathComponent("odd")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        let oddName = [UInt8](odd.path.utf8) + [UInt8(ascii: "/"), 0xFF] + [UInt8](".bin.afresume".utf8) + [0]
        let created = oddName.withUnsafeBytes {
            open($0.baseAddress!.assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o600)
        }
        XCTAssertGreaterThanOrEqual(created, 0)
        close(created)
        let notUTF8 = try Afget.run(["resume", "odd"], in: directory)
        XCTAssertEqual(notUTF8.status, 3)
        XCTAssertEqual(
            notUTF8.stderrLines,
            [
                "afget: odd/\u{FFFD}.bin.afresume: the name is not valid UTF-8, "
                    + "so afget cannot name its files exactly; rename it to continue it"
            ])

        let setpriv = "/usr/bin/setpriv"
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else {
            throw XCTSkip("needs root and setpriv to run afget as nobody")
        }
        let locked = directory.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(locked.path, 0o700), 0)
        let unreadable = try Afget.run(
            ["resume", "locked"], in: directory,
            launcher: [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        XCTAssertEqual(unreadable.status, 3, unreadable.stderr)
        XCTAssertEqual(unreadable.stderrLines, ["afget: locked: cannot read the directory: Permission denied"])
    }

    /// A 206 to a request for the whole file is used only when it holds the whole file: bytes
    /// 5-7 of 10 were written as a complete 3-byte file, exit 0.
    func testAPartialAnswerToAWholeFileRequestIsRefused() throws {
        func reply(_ range: String, _ body: String) -> [UInt8] {
            Array(
                "HTTP/1.1 206 Partial Content\r\nContent-Length: \(body.utf8.count)\r\nContent-Range: \(range)\r\nConnection: close\r\n\r\n\(body)"
                    .utf8)
        }
        let partial = try RawReplyServer(reply: reply("bytes 5-7/10", "fgh"))
        let result = try Afget.run(["-q", "--retry", "0", partial.url("/p.bin")], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertEqual(
            result.stderrLines,
            [
                "afget: \(partial.url("/p.bin")): a partial answer (206) to a request for the whole file: "
                    + "Content-Range \"bytes 5-7/10\" does not continue at byte 0"
            ])
        XCTAssertEqual(listing(directory), [])

        let whole = try RawReplyServer(reply: reply("bytes 0-2/3", "abc"))
        let complete = try Afget.run(["-q", whole.url("/w.bin")], in: directory)
        XCTAssertEqual(complete.status, 0, complete.stderr)
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("w.bin"), encoding: .utf8), "abc")
    }

    func testResumeDataForAnotherURLExits9() throws {
        try leaveHalfADownload()
        let other = server.url("/file/f.bin?size=\(size)")
        let result = try Afget.run(["-q", other], in: directory)
        XCTAssertEqual(result.status, 9)
        XCTAssertTrue(result.stderr.contains("is resume data for \(url), not this URL"), result.stderr)
        XCTAssertEqual(fileSize(part), size / 2)
        // The hint is the exact command that continues against the new URL, and it works.
        let hint = try XCTUnwrap(result.stderr.range(of: "continue it with: ").map { result.stderr[$0.upperBound...] })
        let command = try XCTUnwrap(hint.components(separatedBy: "; or use --restart").first)
        XCTAssertEqual(command, "afget resume --url '\(other)' f.bin.afresume")
        let (status, stderr) = try runShell("'\(Afget.binary.path)'" + command.dropFirst("afget".count) + " -q", in: directory)
        XCTAssertEqual(status, 0, stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
    }

    func testResumeWithANewURLContinuesWhenTheFileIsTheSame() throws {
        try leaveHalfADownload()
        let fresh = server.url("/file/f.bin?size=\(size)&token=new")
        let result = try Afget.run(["resume", "-q", "f.bin.afresume", "--url", fresh], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.last?.uri, "/file/f.bin?size=\(size)&token=new")
        XCTAssertEqual(server.log.all.last?.header("Range"), "bytes=\(size / 2)-")
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
    }

    func testWithoutValidatorsAContinueIsNeverBlind() throws {
        let blind = server.url("/flaky/b.bin?size=\(size)&fail=1&mode=drop&noetag=1&nolm=1")
        let result = try Afget.run(["-q", "--retry-delay", "0", blind], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.map { $0.header("Range") }, [nil, nil], "no validator: start over, never a bare Range")
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("b.bin").path), TestPayload.sha256(count: size))
    }
}
