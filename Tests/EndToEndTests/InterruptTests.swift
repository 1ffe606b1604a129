import Foundation
import TestServer
import XCTest

/// Ctrl-C, SIGTERM and SIGKILL in the middle of a download, then the same command again.
final class InterruptTests: ServerTestCase {
    let size = 4_000_000

    /// 1 MB/s for its first 2 MB, then the rest at once: slow enough to interrupt after the
    /// first checkpoint (at about 1 s, 1 MB), and a continue that does not wait for the rest.
    private var url: String { server.url("/file/big.bin?size=\(size)&chunk=20000&ms=20&fastfrom=2000000") }
    /// 1 MB/s all along (4 s): for a test that stops the download several times.
    private var slowURL: String { server.url("/file/big.bin?size=\(size)&chunk=20000&ms=20") }
    private var destination: URL { directory.appendingPathComponent("big.bin") }
    private var part: URL { directory.appendingPathComponent("big.bin.afpart") }
    private var resumeData: URL { directory.appendingPathComponent("big.bin.afresume") }

    /// Starts afget and waits until its resume data counts more than `bytes`.
    private func startAndWaitForProgress(beyond bytes: Int = 100_000, from url: String? = nil) throws -> (Process, URL, URL) {
        let started = try Afget.start(["--progress", "line", url ?? self.url], in: directory)
        waitUntil("a checkpoint beyond \(bytes) bytes") {
            (checkpointedBytes(resumeData) ?? 0) > bytes
        }
        return started
    }

    private func assertContinuesToTheExactFile(fromAtLeast minimum: Int, from url: String? = nil) throws {
        let before = server.log.all.count
        let result = try Afget.run(["--progress", "line", url ?? self.url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["big.bin"], "part file and resume data are removed")

        let requests = server.log.all.dropFirst(before)
        XCTAssertEqual(requests.count, 1, "one ranged request continues the file")
        let range = try XCTUnwrap(requests.first?.header("Range"))
        let offset = try XCTUnwrap(Int(range.dropFirst("bytes=".count).dropLast()))
        XCTAssertGreaterThanOrEqual(offset, minimum)
        XCTAssertEqual(requests.first?.header("If-Range"), Route.etag(size: size))
        XCTAssertTrue(result.stderr.contains("continuing at"), result.stderr)
        XCTAssertTrue(result.stderr.contains(" this run) in "), "the done line counts this run's bytes: \(result.stderr)")
    }

    /// Starts a download, stops it with `signal` once it has checkpointed, and checks the
    /// orderly stop: afget exits (is not killed) with `status` and says the resume data is saved.
    private func stopAfterProgress(by signal: Int32, expecting status: Int32) throws {
        let (process, _, stderr) = try startAndWaitForProgress()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, status)
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertTrue(
            message.hasSuffix("afget: interrupted; resume data saved. Run the same command again to continue.\n"), message)
    }

    func testCtrlCSavesResumeDataAndTheSameCommandContinues() throws {
        try stopAfterProgress(by: SIGINT, expecting: 130)
        XCTAssertFalse(exists(destination))
        let kept = try XCTUnwrap(fileSize(part))
        let plist = try String(contentsOf: resumeData, encoding: .utf8)
        XCTAssertTrue(
            plist.contains("<key>NSURLSessionResumeBytesReceived</key>\n\t<integer>\(kept)</integer>"),
            "on a clean stop the resume data counts every byte of the part file: \(plist)")
        XCTAssertTrue(plist.contains("<key>NSURLSessionDownloadURL</key>"))
        XCTAssertTrue(
            plist.contains(Route.etag(size: size).replacingOccurrences(of: "\"", with: "&quot;"))
                || plist.contains(Route.etag(size: size)))
        let mode = try FileManager.default.attributesOfItem(atPath: resumeData.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)

        try assertContinuesToTheExactFile(fromAtLeast: kept)
    }

    /// Stopped while waiting to retry a refused connection (retried on first contact only with
    /// --retry-refused): nothing was received, so nothing is claimed to be saved or to be
    /// continued, and no file is left behind.
    func testCtrlCBeforeAnyByteSaysNothingWasSaved() throws {
        let refused = "http://127.0.0.1:\(try freePort())/none.bin"
        let (process, _, stderr) = try Afget.start(
            ["--progress", "line", "--retry-refused", "--retry-delay", "30", refused], in: directory)
        waitUntil("the first retry is announced") {
            ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains("retrying in 30.0 s")
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertTrue(message.hasSuffix("\n\(Self.nothingToContinue)\n"), message)
        XCTAssertFalse(message.contains("resume data saved"), message)
        XCTAssertEqual(listing(directory), [])
    }

    /// Ctrl-C while the server holds back even its headers: not a byte arrived and nothing was
    /// kept, so the last line says there is nothing to continue instead of promising a continue.
    func testCtrlCBeforeTheFirstByteOfTheResponseSaysThereIsNothingToContinue() throws {
        let held = server.url("/file/held.bin?size=\(size)&holdhead=1")
        let (process, _, stderr) = try Afget.start(["--progress", "line", held], in: directory)
        waitUntil("the request reaches the server") { server.log.all.contains { $0.uri.hasPrefix("/file/held.bin") } }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        server.decide("held.bin", .dropped)
        XCTAssertEqual(process.terminationStatus, 130)
        let lines = try String(contentsOf: stderr, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.last, Self.nothingToContinue, "\(lines)")
        XCTAssertFalse(
            lines.contains { $0.contains("Run the same command again") || $0.contains("resume data saved") }, "\(lines)")
        XCTAssertEqual(listing(directory), [], "nothing was kept")
    }

    /// A batch's last line speaks for its most useful stopped item: bytes that cannot be
    /// continued beside an item whose answer has not begun make it "starts over"; beside an item
    /// with resume data, "continue".
    func testABatchsLastLineSaysWhatItsMostUsefulItemLeft() throws {
        let blind = server.url("/file/blind.bin?size=\(size)&chunk=20000&ms=20&noetag=1&nolm=1")
        let held = server.url("/file/held.bin?size=\(size)&holdhead=1")
        let runs: [(second: String, ready: () -> Bool, last: String)] = [
            (
                held, { self.server.log.all.contains { $0.uri.hasPrefix("/file/held.bin") } },
                "afget: interrupted; what arrived cannot be continued: running the same command again starts it over."
            ),
            (
                slowURL, { (checkpointedBytes(self.resumeData) ?? 0) > 100_000 },
                "afget: interrupted; resume data saved. Run the same command again to continue."
            ),
        ]
        for (second, ready, last) in runs {
            let (process, _, stderr) = try Afget.start(["-q", "-j", "2", blind, second], in: directory)
            waitUntil("part of the blind body sent, and \(second) under way") {
                self.server.payloadBytesSent > 100_000 && ready()
            }
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            server.decide("held.bin", .dropped)
            XCTAssertEqual(process.terminationStatus, 130)
            let lines = try String(contentsOf: stderr, encoding: .utf8).split(separator: "\n").map(String.init)
            // Then the summary, counting both.
            XCTAssertEqual(lines.suffix(2).first, last, "\(lines)")
            XCTAssertTrue(lines.last?.hasPrefix("afget: 0 downloaded, 0 skipped, 0 failed, 2 interrupted;") == true, "\(lines)")
        }
    }

    static let nothingToContinue = "afget: interrupted before any data arrived: nothing to continue."

    /// Ctrl-C is obeyed at once while a request waits for its answer, for downloads and
    /// requests alike (the phase a slow or hung server leaves afget in).
    func testCtrlCWhileWaitingForAnAnswerIsObeyedAtOnce() throws {
        for arguments in [["-v", server.url("/silent")], ["request", "-v", server.url("/silent")]] {
            let (process, _, stderr) = try Afget.start(arguments, in: directory)
            waitUntil("the request is sent") {
                ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains("> GET /silent")
            }
            let signaled = Date()
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            XCTAssertLessThan(Date().timeIntervalSince(signaled), 1, "\(arguments)")
            XCTAssertEqual(process.terminationStatus, 130, "\(arguments)")
        }
        XCTAssertEqual(listing(directory), [])
    }

    /// Ctrl-C while an upload from standard input waits for a slow producer: the read of
    /// standard input blocked the curl thread, so the stop waited for the producer.
    func testCtrlCWhileAnUploadWaitsForStandardInputIsObeyedAtOnce() throws {
        let fifo = directory.appendingPathComponent("in.fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let (process, _, stderr) = try Afget.start(
            ["upload", "-", server.url("/upload")], in: directory,
            launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" < in.fifo"])
        let producer = try XCTUnwrap(FileHandle(forWritingAtPath: fifo.path))
        defer { try? producer.close() }
        try producer.write(contentsOf: Data("abc".utf8))
        waitUntil("the first bytes reach the server") { server.bodyBytesReceived >= 3 }
        let signaled = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(signaled), 1)
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 130, message)
    }

    /// Without an ETag or Last-Modified no resume data is written (a continue would be blind),
    /// so nothing claims it was saved, and the last line, like the item's, says the next run
    /// starts over rather than continues.
    func testCtrlCWithoutValidatorsSaysTheNextRunStartsOver() throws {
        let blind = server.url("/file/blind.bin?size=\(size)&chunk=20000&ms=20&noetag=1&nolm=1")
        let (process, _, stderr) = try Afget.start(["-q", blind], in: directory)
        waitUntil("part of the body sent") { self.server.payloadBytesSent > 100_000 }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let lines = try String(contentsOf: stderr, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines,
            [
                "afget: blind.bin cannot be continued (the server sent no ETag or Last-Modified); the next run starts it over",
                "afget: interrupted; what arrived cannot be continued: running the same command again starts it over.",
            ])
        XCTAssertEqual(listing(directory), [], "bytes that cannot be continued were never given a name on disk")
    }

    /// Two signals at once (`timeout` signals the process and then its group) are one stop: the
    /// second exited at once, and the stop's checkpoint was lost (the next run started over).
    func testTwoSignalsAtOnceAreOneOrderlyStop() throws {
        let (process, _, stderr) = try startAndWaitForProgress()
        // Two different signals, so the kernel cannot merge them into one delivery.
        kill(process.processIdentifier, SIGINT)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertTrue([130, 143].contains(process.terminationStatus), "\(process.terminationStatus)")
        XCTAssertFalse(exists(destination))
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertTrue(message.contains("afget: interrupted; resume data saved."), message)
        XCTAssertEqual(checkpointedBytes(resumeData), fileSize(part), "the stop's checkpoint counts every byte kept")
        try assertContinuesToTheExactFile(fromAtLeast: 100_000)
    }

    /// A closed terminal sends SIGHUP: the same orderly stop, exit 129.
    func testSIGHUPExits129WithResumeData() throws {
        try stopAfterProgress(by: SIGHUP, expecting: 129)
        try assertContinuesToTheExactFile(fromAtLeast: 100_000)
    }

    /// A signal afget was started ignoring stays ignored: `afget URL &` in a script is not
    /// stopped by Ctrl-C, nor `nohup afget URL` by a hangup.
    func testSignalsStartedIgnoredStayIgnored() throws {
        let (process, _, _) = try Afget.start(
            ["-q", url], in: directory,
            launcher: ["/bin/sh", "-c", "trap '' INT HUP; exec \"$0\" \"$@\""])
        waitUntil("a checkpoint beyond 100000 bytes") { (checkpointedBytes(resumeData) ?? 0) > 100_000 }
        kill(process.processIdentifier, SIGINT)
        kill(process.processIdentifier, SIGHUP)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["big.bin"])
    }

    func testSIGTERMExits143WithResumeData() throws {
        try stopAfterProgress(by: SIGTERM, expecting: 143)
        XCTAssertTrue(exists(resumeData))
        try assertContinuesToTheExactFile(fromAtLeast: 100_000)
    }

    func testSIGKILLLosesAtMostTheLastCheckpointInterval() throws {
        let (process, _, _) = try startAndWaitForProgress(beyond: 300_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertFalse(exists(destination))
        try assertContinuesToTheExactFile(fromAtLeast: 300_000)
    }

    func testRepeatedKillsThenContinue() throws {
        var reached = 0
        for _ in 0..<3 {
            let (process, _, _) = try startAndWaitForProgress(beyond: reached + 100_000, from: slowURL)
            reached = checkpointedBytes(resumeData) ?? reached
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try assertContinuesToTheExactFile(fromAtLeast: reached, from: slowURL)
    }

    func testASecondAfgetOnTheSameDestinationExits12AtOnce() throws {
        let (first, _, _) = try startAndWaitForProgress()
        let second = try Afget.run(["--progress", "line", url], in: directory)
        XCTAssertEqual(second.status, 12)
        XCTAssertEqual(
            second.stderrLines, ["afget: big.bin: another afget is downloading this file (it holds the lock on big.bin.afpart)"])

        kill(first.processIdentifier, SIGINT)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 130)
        try assertContinuesToTheExactFile(fromAtLeast: 100_000)
    }

    /// Busy comes first: the running afget's resume data is for its URL, not this one, but that
    /// is no conflict to resolve with --restart while the file is being downloaded.
    func testASecondAfgetGivenAnotherURLForABusyDestinationExits12() throws {
        let (first, _, _) = try startAndWaitForProgress()
        let other = server.url("/file/other.bin?size=1000")
        for extra in [[], ["--restart"], ["--no-restart"]] {
            let second = try Afget.run(["--progress", "line"] + extra + ["-o", "big.bin", other], in: directory)
            XCTAssertEqual(second.status, 12, "\(extra): \(second.stderr)")
            XCTAssertEqual(
                second.stderrLines,
                ["afget: big.bin: another afget is downloading this file (it holds the lock on big.bin.afpart)"])
        }
        XCTAssertFalse(server.log.all.contains { $0.uri.hasPrefix("/file/other.bin") })
        XCTAssertNotNil(checkpointedBytes(resumeData), "the running download's resume data is left alone")

        kill(first.processIdentifier, SIGINT)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 130)
        try assertContinuesToTheExactFile(fromAtLeast: 100_000)
    }

    func testResumeCommandContinuesFromResumeDataAlone() throws {
        let (process, _, _) = try startAndWaitForProgress()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()

        let result = try Afget.run(["resume", "--progress", "line", "."], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory), ["big.bin"])

        // Then nothing is left: success, said in one line (nothing at all with -q).
        let again = try Afget.run(["resume"], in: directory)
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(
            again.stderrLines, ["afget: nothing to resume: no .afresume files in . or the directories below it (3 levels down)"])
        let quiet = try Afget.run(["resume", "-q"], in: directory)
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stderr, "")
    }

    /// A download started with `-d downloads` and stopped: `afget resume` where it was started
    /// finds its resume data below the current directory, says where, and finishes the file.
    /// Deeper than the search goes, or in a hidden directory, it is not looked for.
    func testResumeWithoutAPathFindsResumeDataBelowTheCurrentDirectory() throws {
        let (process, _, _) = try Afget.start(["--progress", "line", "-d", "downloads", url], in: directory)
        let kept = directory.appendingPathComponent("downloads/big.bin.afresume")
        waitUntil("a checkpoint beyond 100000 bytes") { (checkpointedBytes(kept) ?? 0) > 100_000 }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)

        let result = try Afget.run(["resume", "--progress", "line"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderrLines.first, "afget: no .afresume files in .; continuing those in downloads")
        let finished = directory.appendingPathComponent("downloads/big.bin")
        XCTAssertEqual(sha256Hex(ofFile: finished.path), TestPayload.sha256(count: size))
        XCTAssertEqual(listing(directory.appendingPathComponent("downloads")), ["big.bin"])

        for place in ["a/b/c/d", ".hidden"] {
            let deep = directory.appendingPathComponent(place)
            try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: deep.appendingPathComponent("f.bin.afresume"))
        }
        let nothing = try Afget.run(["resume"], in: directory)
        XCTAssertEqual(nothing.status, 0, nothing.stderr)
        XCTAssertEqual(
            nothing.stderrLines, ["afget: nothing to resume: no .afresume files in . or the directories below it (3 levels down)"]
        )
    }

    /// A password in the URL is used for the request but never shown or written down: not in
    /// messages, progress lines, the report or resume data; the same command continues.
    func testAPasswordInTheURLIsNeverShownOrRecorded() throws {
        let withPassword = url.replacingOccurrences(of: "http://", with: "http://user:s3cret@")
        let started = try Afget.start(["--progress", "line", "--report", "report.json", withPassword], in: directory)
        waitUntil("a checkpoint beyond 100000 bytes") { (checkpointedBytes(resumeData) ?? 0) > 100_000 }
        kill(started.0.processIdentifier, SIGINT)
        started.0.waitUntilExit()
        XCTAssertEqual(started.0.terminationStatus, 130)
        let interrupted = try String(contentsOf: started.2, encoding: .utf8)
        let plist = try String(contentsOf: resumeData, encoding: .utf8)
        XCTAssertTrue(plist.contains("http://user@127.0.0.1"), plist)
        XCTAssertEqual(server.log.all.last?.header("Authorization"), "Basic " + Data("user:s3cret".utf8).base64EncodedString())

        let result = try Afget.run(["--progress", "line", "--report", "report.json", withPassword], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertNotNil(server.log.all.last?.header("Range"), "continued, not started over")
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        for (name, text) in [
            ("first run's stderr", interrupted), ("resume data", plist), ("second run's stderr", result.stderr),
            ("report", report),
        ] {
            XCTAssertFalse(text.contains("s3cret"), "\(name): \(text)")
        }
        XCTAssertTrue(result.stderr.contains("http://user@127.0.0.1"), result.stderr)
    }

    /// `afget resume` sends the original request's headers again (the same file, a ranged
    /// request), but not the ones that may hold secrets: those are never written down.
    func testResumeCommandReplaysHeadersButNoSecrets() throws {
        let started = try Afget.start(
            [
                "--progress", "line", "-H", "X-Trace: abc", "-H", "Authorization: Bearer t0k",
                "-H", "X-Api-Key: s3cret", url,
            ], in: directory)
        waitUntil("a checkpoint beyond 100000 bytes") { (checkpointedBytes(resumeData) ?? 0) > 100_000 }
        kill(started.0.processIdentifier, SIGINT)
        started.0.waitUntilExit()
        XCTAssertEqual(started.0.terminationStatus, 130)
        let plist = try String(contentsOf: resumeData, encoding: .utf8)
        XCTAssertTrue(plist.contains("<string>X-Trace: abc</string>"), plist)
        XCTAssertFalse(plist.contains("t0k") || plist.contains("s3cret"), plist)

        let before = server.log.all.count
        let result = try Afget.run(["resume", "--progress", "line", "."], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        let continuing = try XCTUnwrap(server.log.all.dropFirst(before).first)
        XCTAssertNotNil(continuing.header("Range"))
        XCTAssertEqual(continuing.header("X-Trace"), "abc")
        XCTAssertNil(continuing.header("Authorization"))
        XCTAssertNil(continuing.header("X-Api-Key"))
    }
}

/// The bytes a split download's resume data says its segments hold (`AFGetSegments`, each one's
/// `done`): after an orderly stop, what the next run must not ask for again.
func segmentBytesHeld(_ resumeData: URL) -> Int? {
    guard let data = try? Data(contentsOf: resumeData),
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
        let segments = plist["AFGetSegments"] as? [[String: Any]]
    else { return nil }
    return segments.compactMap { $0["done"] as? Int }.reduce(0, +)
}

/// The byte count a resume data file claims, read the way a user would: from its XML.
func checkpointedBytes(_ resumeData: URL) -> Int? {
    guard let text = try? String(contentsOf: resumeData, encoding: .utf8),
        let key = text.range(of: "<key>NSURLSessionResumeBytesReceived</key>"),
        let open = text.range(of: "<integer>", range: key.upperBound..<text.endIndex),
        let close = text.range(of: "</integer>", range: open.upperBound..<text.endIndex)
    else { return nil }
    return Int(text[open.upperBound..<close.lowerBound])
}
