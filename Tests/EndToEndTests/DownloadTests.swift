import Foundation
import TestServer
import XCTest

/// Single downloads through the real binary: bytes on disk, files left, exit status, streams.
final class DownloadTests: ServerTestCase {
    func testDownloadsFileNamedAfterURLWithExactBytes() throws {
        let result = try Afget.run(["--progress", "none", server.url("/file/data.bin?size=300000")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["data.bin"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("data.bin").path), TestPayload.sha256(count: 300_000))
        XCTAssertTrue(result.stdout.isEmpty, "stdout carries data only")
        XCTAssertEqual(result.stderr, "")
    }

    func testCompletedFileTakesLastModifiedAndUmaskMode() throws {
        let result = try Afget.run(["-q", server.url("/file/dated.bin?size=10")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)

        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("dated.bin").path)
        let modified = try XCTUnwrap(attributes[.modificationDate] as? Date)
        XCTAssertEqual(Int(modified.timeIntervalSince1970), Route.lastModifiedEpoch)
        let mode = try XCTUnwrap(attributes[.posixPermissions] as? Int)
        let mask = umask(0o022)
        umask(mask)
        XCTAssertEqual(mode, 0o666 & ~Int(mask))
    }

    func testEmptyLastSegmentIsSavedAsIndexHTML() throws {
        let result = try Afget.run(["-q", server.url("/file/?size=5")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["index.html"])
    }

    func testNameIsPercentDecodedAndKeptInsideTheDirectory() throws {
        let result = try Afget.run(["-q", server.url("/file/my%20report%2F..%2Fx.pdf?size=5")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["my report_.._x.pdf"])
    }

    func testOutputPathAndMissingDirectoriesAreCreated() throws {
        let result = try Afget.run(["-q", "-o", "a/b/out.bin", server.url("/file/x?size=4096")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("a/b/out.bin").path), TestPayload.sha256(count: 4096))

        let intoDirectory = try Afget.run(["-q", "-d", "new/dir", server.url("/file/y.bin?size=10")], in: directory)
        XCTAssertEqual(intoDirectory.status, 0, intoDirectory.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("new/dir")), ["y.bin"])
    }

    /// `-o sub/` has no file name to create: refused before anything is fetched or made,
    /// rather than found out at the final rename with the data left in `sub/.afpart`.
    func testAnOutputPathNamingADirectoryIsRefusedUpFront() throws {
        for (path, message) in [
            ("sub/", "-o/--output \"sub/\" names a directory, not a file; use -d/--dir to download into it"),
            ("sub/..", "-o/--output \"sub/..\" names a directory, not a file; use -d/--dir to download into it"),
            ("", "-o/--output is empty; give a file name"),
        ] {
            let result = try Afget.run(["-o", path, server.url("/file/x.bin?size=10")], in: directory)
            XCTAssertEqual(result.status, 2, "\(path): \(result.stderr)")
            XCTAssertEqual(result.stderrLines, ["afget: \(message) (see afget --help)"])
        }
        XCTAssertEqual(listing(directory), [])
        XCTAssertEqual(server.log.all.count, 0)
    }

    func testStdoutCarriesTheBodyAndNothingElse() throws {
        let result = try Afget.run(["-o", "-", "--progress", "line", server.url("/file/s.bin?size=200000")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(result.stdout), TestPayload.sha256(count: 200_000))
        XCTAssertEqual(listing(directory), [], "streaming to stdout writes no file")
        XCTAssertTrue(result.stderr.contains("done"), result.stderr)
    }

    /// A standard stream the parent closed keeps its number: data for a closed stdout is a
    /// write error (exit 3), not bytes sent to whatever was opened next; a closed stdin is a
    /// list that cannot be read.
    func testClosedStandardStreamsAreReportedNotReused() throws {
        let url = server.url("/file/s.bin?size=1000")
        let closedStdout = try runShell("'\(Afget.binary.path)' -q -o - '\(url)' >&-", in: directory)
        XCTAssertEqual(closedStdout.status, 3)
        XCTAssertEqual(closedStdout.stderr, "afget: \(url): cannot write standard output: Bad file descriptor\n")
        let closedStdin = try runShell("'\(Afget.binary.path)' -q -i - <&-", in: directory)
        XCTAssertEqual(closedStdin.status, 2)
        XCTAssertEqual(closedStdin.stderr, "afget: stdin: cannot read the list: Bad file descriptor\n")
        XCTAssertEqual(listing(directory), [])
    }

    /// A limit on open files too low for one transfer is one line and exit 3 before any
    /// request, not a crash when the runtime cannot open a file of its own.
    func testALimitOnOpenFilesTooLowForATransferIsRefused() throws {
        let url = server.url("/file/s.bin?size=1000")
        for arguments in ["-q '\(url)'", "request '\(url)'"] {
            let result = try runShell("ulimit -n 12 && '\(Afget.binary.path)' \(arguments)", in: directory)
            XCTAssertEqual(result.status, 3, result.stderr)
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("afget: too few files may be open (ulimit -n 12): "), result.stderr)
        }
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(listing(directory), [])
    }

    func testNotFoundLeavesNoFileAndExits8() throws {
        let url = server.url("/status/404")
        let result = try Afget.run(["--progress", "line", "-o", "page.html", url], in: directory)

        XCTAssertEqual(result.status, 8)
        XCTAssertEqual(listing(directory), [], "no file, no empty file, no part file")
        XCTAssertEqual(result.stderrLines, ["afget: \(url): HTTP 404 Not Found"])
    }

    func testServerErrorExits8() throws {
        let result = try Afget.run(["-q", "--retry", "0", server.url("/status/500")], in: directory)
        XCTAssertEqual(result.status, 8)
        XCTAssertEqual(listing(directory), [])
    }

    /// A refused connection on first contact fails at once, as curl does, with one line naming
    /// host and port (retrying a wrong port took 31 s); `--retry-refused` retries it.
    func testConnectionRefusedOnFirstContactExits4AtOnce() throws {
        let closedPort = try unusedPort()
        let url = "http://127.0.0.1:\(closedPort)/file"
        let result = try Afget.run(["-q", "--retry-delay", "0.1", url], in: directory)
        XCTAssertEqual(result.status, 4)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("127.0.0.1 port \(closedPort)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("not retried before the server has answered once"), result.stderr)
        XCTAssertEqual(listing(directory), [])

        let asked = try Afget.run(
            ["--progress", "line", "--retry", "2", "--retry-delay", "0", "--retry-refused", url], in: directory)
        XCTAssertEqual(asked.status, 4)
        XCTAssertTrue(asked.stderr.contains("(after 3 attempts)"), asked.stderr)
    }

    /// A server that answered once and then refuses (restarting under a transfer) is retried.
    func testAServerRefusingAfterItAnsweredIsRetried() throws {
        var restarting: TestHTTPServer? = try TestHTTPServer()
        let url = try XCTUnwrap(restarting).url("/drop/gone.bin?size=3000000&after=1000")
        let (process, _, stderr) = try Afget.start(
            ["--progress", "line", "--retry", "2", "--retry-delay", "1", url], in: directory)
        waitUntil("the first attempt answered") { restarting?.log.all.count == 1 }
        restarting = nil  // its port now refuses
        process.waitUntilExit()
        let messages = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 4, messages)
        XCTAssertTrue(messages.contains("Couldn't connect to server (after 3 attempts)"), messages)
        XCTAssertFalse(messages.contains("not retried"), messages)
    }

    func testDroppedConnectionExits4AndNeverCreatesDestination() throws {
        // Larger than a small body (1 MiB), which would keep nothing and start over next run.
        let result = try Afget.run(["-q", "--retry", "0", server.url("/drop/cut.bin?size=3000000&after=1500000")], in: directory)

        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertFalse(listing(directory).contains("cut.bin"), "DEST exists only when complete")
        let part = directory.appendingPathComponent("cut.bin.afpart").path
        let kept = try FileManager.default.attributesOfItem(atPath: part)[.size] as? Int
        XCTAssertEqual(kept, 1_500_000, "received data is kept for a later run")
    }

    func testStallTimeoutEndsATransferThatStopsSending() throws {
        let result = try Afget.run(
            ["-q", "--retry", "0", "--stall-timeout", "1", server.url("/stall/slow.bin?size=100000&after=1000")], in: directory)
        XCTAssertEqual(result.status, 4)
        XCTAssertTrue(result.stderr.contains("stalled: no data received for 1 s"), result.stderr)
        XCTAssertFalse(listing(directory).contains("slow.bin"))
    }

    func testHeadersThatNeverArriveCountAsAStall() throws {
        let result = try Afget.run(["-q", "--retry", "0", "--stall-timeout", "1", server.url("/silent")], in: directory)
        XCTAssertEqual(result.status, 4)
        XCTAssertTrue(result.stderr.contains("no complete response headers within 1 s"), result.stderr)
    }

    func testMalformedURLIsAUsageErrorOnOneLine() throws {
        let result = try Afget.run(["-q", "http://[::1"], in: directory)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("afget: http://[::1: malformed URL"), result.stderr)

        // A host without a scheme is taken as http:// (URLsAsTypedTests); a local path is not a URL.
        let path = try Afget.run(["-q", "./f.bin"], in: directory)
        XCTAssertEqual(path.status, 2)
        XCTAssertEqual(
            path.stderrLines,
            ["afget: ./f.bin: not a URL: it must start with http://, https://, ftp://, ftps://, sftp:// or scp://"])
    }

    /// As browsers and wget do, a space copied along with a URL is sent as %20.
    func testASpaceInAURLIsSentEscaped() throws {
        let result = try Afget.run(["-q", server.url("/file/two words.bin?size=300")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.map(\.uri), ["/file/two%20words.bin?size=300"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("two words.bin").path), TestPayload.sha256(count: 300))
    }

    /// A URL of another scheme is refused naming it and saying what afget fetches; `file:///`
    /// was "malformed URL: no host", as if a host were what it lacked.
    func testUnsupportedSchemeIsAUsageError() throws {
        for (url, scheme) in [("gopher://127.0.0.1/file", "gopher"), ("file:///etc/hostname", "file"), ("FILE:///tmp/x", "file")]
        {
            let result = try Afget.run(["-q", url], in: directory)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertEqual(
                result.stderrLines,
                [
                    "afget: \(url): \(scheme): URLs are not supported: afget fetches http://, https://, ftp://, ftps://, sftp:// or scp:// URLs"
                ])
        }
        let request = try Afget.run(["request", "file:///etc/hostname"], in: directory)
        XCTAssertEqual(request.status, 2, request.stderr)
        XCTAssertEqual(
            request.stderrLines,
            ["afget: file:///etc/hostname: file: URLs are not supported: afget request speaks http:// or https:// URLs"])
        // Among other URLs it is one failed item; the others download.
        let batch = try Afget.run(["-q", "file:///etc/hostname", server.url("/file/b.bin?size=10")], in: directory)
        XCTAssertEqual(batch.status, 2, batch.stderr)
        XCTAssertEqual(
            batch.stderrLines.first,
            "afget: file:///etc/hostname: file: URLs are not supported: afget fetches http://, https://, ftp://, ftps://, sftp:// or scp:// URLs"
        )
        XCTAssertEqual(listing(directory), ["b.bin"])
    }

    func testBadOptionsAreUsageErrors() throws {
        for arguments in [
            ["--no-such-option", "http://x/"], ["--on-exists", "sometimes", "http://x/"],
            ["-o", "a", "http://x/1", "http://x/2"], ["-H", "NoColon", "http://x/"], [],
        ] {
            let result = try Afget.run(arguments, in: directory)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderrLines.count, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("afget: "), result.stderr)
        }
    }

    func testHelpAndVersionGoToStdout() throws {
        let help = try Afget.run(["download", "--help"], in: directory)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdoutText.contains("--on-exists"), help.stdoutText)
        XCTAssertEqual(help.stderr, "")

        let request = try Afget.run(["help", "request"], in: directory)
        XCTAssertEqual(request.status, 0)
        XCTAssertTrue(
            request.stdoutText.replacingOccurrences(of: "\n", with: " ").contains("or POST when an item goes in the body"),
            "which items make POST the default: \(request.stdoutText)")

        let upload = try Afget.run(["upload", "--help"], in: directory)
        XCTAssertTrue(upload.stdoutText.contains("The method to send with. (default: PUT)"), upload.stdoutText)

        let unknown = try Afget.run(["help", "nosuch"], in: directory)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stdoutText, "")
        XCTAssertEqual(
            unknown.stderr, "afget: help: no command nosuch (the commands: download, resume, request, upload)\n")

        let version = try Afget.run(["--version"], in: directory)
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdoutText.hasPrefix("0."), version.stdoutText)
        XCTAssertTrue(version.stdoutText.contains("(libcurl/"), "the libcurl it runs on: \(version.stdoutText)")
    }

    func testUnwritableDirectoryIsALocalFileError() throws {
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("blocker").path, contents: Data("x".utf8))
        let result = try Afget.run(["-q", "-d", "blocker/sub", server.url("/file/f.bin?size=10")], in: directory)
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("blocker"), result.stderr)
    }

    /// A file that cannot grow (here the shell's `ulimit -f`, as a full disk would) is one line
    /// and exit 3, not a signal; what was written is kept and counted, and the next run, with
    /// room, continues from it to the exact file.
    func testAFileThatCannotGrowKeepsWhatWasWrittenForTheNextRun() throws {
        let size = 3_000_000
        let url = server.url("/file/big.bin?size=\(size)")
        let limited = Process()
        limited.executableURL = URL(fileURLWithPath: "/bin/sh")
        limited.arguments = ["-c", "ulimit -f 1024 && exec \"$0\" -q \"$1\"", Afget.binary.path, url]
        limited.currentDirectoryURL = directory
        let stderr = Pipe()
        limited.standardError = stderr
        try limited.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        limited.waitUntilExit()
        XCTAssertEqual(limited.terminationReason, .exit, "not killed by SIGXFSZ")
        XCTAssertEqual(limited.terminationStatus, 3)
        XCTAssertEqual(message.split(separator: "\n").count, 1, message)
        XCTAssertTrue(message.contains("big.bin.afpart") && message.contains("File too large"), message)
        // dash counts the limit in 512-byte blocks, bash in KiB: what matters is that every byte
        // written is counted.
        let kept = try XCTUnwrap(fileSize(directory.appendingPathComponent("big.bin.afpart")))
        XCTAssertTrue(kept > 0 && kept < size, "\(kept)")
        XCTAssertEqual(checkpointedBytes(directory.appendingPathComponent("big.bin.afresume")), kept)

        let before = server.log.all.count
        let result = try Afget.run(["-q", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), TestPayload.sha256(count: size))
        XCTAssertEqual(server.log.all.dropFirst(before).first?.header("Range"), "bytes=\(kept)-")
    }

    /// A full disk (a 2 MiB tmpfs): a body of known length is refused as it starts ("no room");
    /// one of unknown length fills the disk, and the part gives back its last 64 KiB so that
    /// resume data counting the rest fits. Either way one line, exit 3, and with room the same
    /// command continues to the exact file.
    func testAFullDiskKeepsWhatWasWrittenForTheNextRun() throws {
        let disk = directory.appendingPathComponent("disk")
        try mountSmallDisk(at: disk)
        defer { unmount(disk) }
        let size = 3_000_000
        for (name, query, words) in [
            ("known.bin", "", ["no room for", "known.bin.afpart"]),
            ("unknown.bin", "&nolength=1", ["kept in", "unknown.bin.afpart"]),
        ] {
            let url = server.url("/file/\(name)?size=\(size)\(query)")
            let full = try Afget.run(["-q", "-d", disk.path, url], in: directory)
            XCTAssertEqual(full.status, 3, full.stderr)
            XCTAssertEqual(full.stderrLines.count, 1, full.stderr)
            for word in words + ["No space left on device"] {
                XCTAssertTrue(full.stderr.contains(word), "\(word): \(full.stderr)")
            }
            let part = disk.appendingPathComponent("\(name).afpart")
            let kept = fileSize(part) ?? 0
            if name == "unknown.bin" {
                XCTAssertGreaterThan(kept, 0)
                XCTAssertEqual(checkpointedBytes(disk.appendingPathComponent("\(name).afresume")), kept)
            }
            try resize(disk, to: "16m")
            let before = server.log.all.count
            let result = try Afget.run(["-q", "-d", disk.path, url], in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(sha256Hex(ofFile: disk.appendingPathComponent(name).path), TestPayload.sha256(count: size))
            if kept > 0 {
                XCTAssertEqual(server.log.all.dropFirst(before).first?.header("Range"), "bytes=\(kept)-")
            }
            try FileManager.default.removeItem(at: disk.appendingPathComponent(name))
            try resize(disk, to: "2m")
        }
    }

    /// A length larger than a file may be on this file system (17 TiB: ext4 stops at 16) is one
    /// line and exit 3 as the body starts. fallocate's EFBIG used to be ignored, and the download
    /// went on to fail where the file system stops (4 GiB on a FAT stick).
    func testALengthTooLargeForTheFileSystemIsRefusedAsTheBodyStarts() throws {
        let url = server.url("/file/huge.bin?size=100000&claim=\(17 << 40)")
        let result = try Afget.run(["-q", "--retry", "0", url], in: directory)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("huge.bin.afpart"), result.stderr)
        // ext4 says the file would be too large; a file system holding larger files, no room.
        XCTAssertTrue(
            result.stderr.contains("cannot grow to 17.0 TiB: larger than a file on this file system may be (File too large)")
                || result.stderr.contains("no room for"), result.stderr)
        XCTAssertFalse(listing(directory).contains("huge.bin"))
    }

    /// A tmpfs of 2 MiB, or a skip where mounting is not allowed (it needs root).
    private func mountSmallDisk(at path: URL) throws {
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        let (status, stderr) = try runShell("mount -t tmpfs -o size=2m afget-test '\(path.path)'", in: directory)
        if status != 0 { throw XCTSkip("cannot mount a small tmpfs here: \(stderr)") }
    }

    private func resize(_ path: URL, to size: String) throws {
        let (status, stderr) = try runShell("mount -o remount,size=\(size) '\(path.path)'", in: directory)
        XCTAssertEqual(status, 0, stderr)
    }

    private func unmount(_ path: URL) {
        _ = try? runShell("umount '\(path.path)'", in: directory)
    }

    func testSeveralURLsReportTheLowestFailureCode() throws {
        let result = try Afget.run(
            ["--progress", "line", server.url("/file/one.bin?size=10"), server.url("/status/404"), "http://[bad"],
            in: directory)
        XCTAssertEqual(result.status, 2, "usage (2) is lower than HTTP (8)")
        XCTAssertEqual(listing(directory), ["one.bin"])
        XCTAssertTrue(result.stderr.contains("1 downloaded, 0 skipped, 2 failed"), result.stderr)
    }
}

/// A port on 127.0.0.1 with nothing listening.
func unusedPort() throws -> Int {
    let probe = try TestHTTPServer()
    return probe.port  // the server is shut down when `probe` goes away
}

/// Devices and FIFOs named with -o are written in place, never replaced by a file.
final class SpecialOutputTests: ServerTestCase {
    func testOutputToDevNullWritesThroughIt() throws {
        let result = try Afget.run(["-q", "-o", "/dev/null", server.url("/file/x?size=100000")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        var status = stat()
        XCTAssertEqual(stat("/dev/null", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a device")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/null.afpart"))
    }

    /// `-o /dev/stdout` is `-o -` and `-o /dev/stderr` that stream, also when they are
    /// redirected to files (as here): the data goes on where the stream is, nothing is made or
    /// replaced beside them.
    func testOutputToDevStdoutOrStderrIsThatStreamEvenWhenItIsAFile() throws {
        let toStdout = try Afget.run(["-q", "-o", "/dev/stdout", server.url("/file/x?size=100000")], in: directory)
        XCTAssertEqual(toStdout.status, 0, toStdout.stderr)
        XCTAssertEqual(sha256Hex(toStdout.stdout), TestPayload.sha256(count: 100_000))
        let toStderr = try Afget.start(["-q", "-o", "/dev/stderr", server.url("/file/y?size=1000")], in: directory)
        toStderr.process.waitUntilExit()
        XCTAssertEqual(toStderr.process.terminationStatus, 0)
        XCTAssertEqual(sha256Hex(try Data(contentsOf: toStderr.stderr)), TestPayload.sha256(count: 1000))
        try FileManager.default.removeItem(at: toStderr.stdout)
        try FileManager.default.removeItem(at: toStderr.stderr)
        XCTAssertEqual(listing(directory), [])
        for stream in ["/dev/stdout", "/dev/stderr"] {
            var status = stat()
            XCTAssertEqual(lstat(stream, &status), 0)
            XCTAssertEqual(status.st_mode & S_IFMT, S_IFLNK, "\(stream) is still the link it was")
            XCTAssertFalse(FileManager.default.fileExists(atPath: stream + ".afpart"))
        }
    }
}
