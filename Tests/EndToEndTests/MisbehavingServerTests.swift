import Foundation
import TestServer
import XCTest

/// Servers that mishandle ranges the way real ones do (Twisted and object stores that ignore
/// If-Range, Caddy's gzip-coded parts, Apache's 416 without a length): a file afget reports
/// as done is still the server's file, byte for byte.
final class MisbehavingServerTests: ServerTestCase {
    let size = 3_000_000

    private var destination: URL { directory.appendingPathComponent("f.bin") }
    private var part: URL { directory.appendingPathComponent("f.bin.afpart") }
    private var resumeData: URL { directory.appendingPathComponent("f.bin.afresume") }

    /// `/flaky` cut off half way once; `query` says how the file is served.
    private func url(_ query: String = "") -> String {
        server.url("/flaky/f.bin?size=\(size)&fail=1&mode=drop\(query)")
    }

    /// A first run cut off half way, without retries: part file and resume data left behind.
    private func leaveHalfADownload(_ query: String = "", _ extra: [String] = []) throws {
        try leaveHalfADownload(of: url(query), named: "f.bin", size: size, extra: extra)
    }

    private func afget(_ query: String = "", _ extra: [String] = []) throws -> AfgetResult {
        try Afget.run(["--progress", "line", "--retry-delay", "0"] + extra + [url(query)], in: directory)
    }

    /// Twisted: no ETag, and a 206 whatever If-Range says. The changed file's Last-Modified
    /// gives it away; appending its bytes to the old ones was exit 0 with a spliced file.
    func testA206WithAnotherLastModifiedIsNeverSpliced() throws {
        try leaveHalfADownload("&noetag=1&lmversion=1")
        server.change("f.bin", ["v": "1", "ranges": "always"])
        let result = try afget("&noetag=1&lmversion=1")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size, version: 1))
        XCTAssertTrue(
            result.stderr.contains(
                "cannot continue (the file changed on the server (Last-Modified "
                    + "\(Route.lastModified) became \(Route.lastModified(version: 1)))); starting over"),
            result.stderr)
        XCTAssertEqual(listing(directory), ["f.bin"])
    }

    func testA206OfAChangedFileWithNoRestartExits9AndKeepsThePart() throws {
        try leaveHalfADownload("&noetag=1&lmversion=1")
        let plist = try Data(contentsOf: resumeData)
        server.change("f.bin", ["v": "1", "ranges": "always"])
        let result = try afget("&noetag=1&lmversion=1", ["--no-restart"])
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertTrue(result.stderr.contains("the file changed on the server"), result.stderr)
        XCTAssertTrue(result.stderr.contains("run the same command without --no-restart to start over"), result.stderr)
        XCTAssertEqual(fileSize(part), size / 2)
        XCTAssertEqual(try Data(contentsOf: resumeData), plist)
    }

    /// With `-s`, every segment checks the validators: a changed file behind an ignored
    /// If-Range was four interleaved versions. The whole download starts over instead.
    func testASplitDownloadOfAChangedFileStartsOver() throws {
        let size = 6_000_000
        let arguments = [
            "--progress", "line", "-s", "3", "--min-split-size", "256K",
            server.url("/file/k.bin?size=\(size)&chunk=30000&ms=50&noetag=1&lmversion=1"),
        ]
        let (process, _, _) = try Afget.start(arguments, in: directory)
        let resumeData = directory.appendingPathComponent("k.bin.afresume")
        waitUntil("resume data with segments and bytes") {
            let text = (try? String(contentsOf: resumeData, encoding: .utf8)) ?? ""
            return text.contains("AFGetSegments") && (checkpointedBytes(resumeData) ?? 0) > 0
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        server.change("k.bin", ["v": "1", "ranges": "always", "chunk": "1000000", "ms": "1"])
        let before = server.log.all.count
        let result = try Afget.run(arguments, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("k.bin").path), TestPayload.sha256(count: size, version: 1))
        XCTAssertTrue(result.stderr.contains("the file changed on the server (Last-Modified"), result.stderr)
        // Started over split again: after the restart, ranges begin inside the file.
        let restarted = server.log.all.dropFirst(before).compactMap { $0.header("Range") }
        XCTAssertGreaterThanOrEqual(restarted.filter { !$0.hasPrefix("bytes=0-") }.count, 2, "\(restarted)")
        XCTAssertEqual(listing(directory), ["k.bin"])
    }

    /// A weak ETag (or one with a non-ASCII byte) cannot go in If-Range, so a continue sends
    /// Last-Modified, which a server ignoring If-Range never checks. The 206's other ETag, with
    /// the same Last-Modified, gives the change away: appending was exit 0 with two versions
    /// spliced. Each tag is compared as the server wrote it, weakly.
    func testA206WithAnotherWeakOrNonASCIIEntityTagIsNeverSpliced() throws {
        let tags: [(name: String, query: String, tag: (Int) -> String)] = [
            ("weak.bin", "&weak=1", { "W/" + Route.etag(size: self.size, version: $0) }),
            ("utf8.bin", "&etag8=1", { Route.etag(size: self.size, version: $0, nonASCII: true) }),
        ]
        for (name, query, tag) in tags {
            let url = server.url("/flaky/\(name)?size=\(size)&fail=1&mode=drop\(query)")
            try leaveHalfADownload(of: url, named: name, size: size)
            server.change(name, ["v": "1", "ranges": "always"])
            let before = server.log.all.count
            let result = try Afget.run(["--progress", "line", "--retry-delay", "0", url], in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
            let file = directory.appendingPathComponent(name)
            XCTAssertEqual(sha256Hex(ofFile: file.path), TestPayload.sha256(count: size, version: 1), name)
            let continued = server.log.all.dropFirst(before).first { $0.header("Range") != nil }
            XCTAssertEqual(continued?.header("If-Range"), Route.lastModified, "\(name): the tag is never sent")
            XCTAssertTrue(
                result.stderr.contains("the file changed on the server (ETag \(tag(0)) became \(tag(1)))"), result.stderr)
            XCTAssertFalse(exists(directory.appendingPathComponent(name + ".afpart")), name)
        }
    }

    /// The same within one run: the connection drops, the file changes behind a weak ETag, and
    /// the retry's 206 (If-Range ignored) is of the new version.
    func testARetryIsNotSplicedWhenAWeakEntityTagChanges() throws {
        let (process, stdout, _) = try Afget.start(
            [
                "--progress", "json", "--retry-delay", "0",
                server.url("/file/w.bin?size=\(size)&weak=1&holdafter=\(size / 2)"),
            ], in: directory)
        defer { if process.isRunning { process.terminate() } }
        waitUntil("half the file received") {
            ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").contains("\"bytes\":\(size / 2),")
        }
        server.change("w.bin", ["v": "1", "ranges": "always", "holdafter": "0"])
        server.decide("w.bin", .dropped)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let file = directory.appendingPathComponent("w.bin")
        XCTAssertEqual(sha256Hex(ofFile: file.path), TestPayload.sha256(count: size, version: 1))
        let ranges = server.log.all.map { $0.header("Range") }
        XCTAssertEqual(ranges, [nil, "bytes=\(size / 2)-", nil], "continued, refused unwritten, started over")
        XCTAssertEqual(listing(directory), ["w.bin"])
    }

    /// With `-s`, every segment compares the weak ETag too: a changed file behind an ignored
    /// If-Range was taken into the segments without a notice.
    func testASplitDownloadOfAFileWithAChangedWeakEntityTagStartsOver() throws {
        let size = 6_000_000
        let arguments = [
            "--progress", "line", "-s", "3", "--min-split-size", "256K",
            server.url("/file/k.bin?size=\(size)&chunk=30000&ms=50&weak=1"),
        ]
        let (process, _, _) = try Afget.start(arguments, in: directory)
        let resumeData = directory.appendingPathComponent("k.bin.afresume")
        waitUntil("resume data with segments and bytes") {
            let text = (try? String(contentsOf: resumeData, encoding: .utf8)) ?? ""
            return text.contains("AFGetSegments") && (checkpointedBytes(resumeData) ?? 0) > 0
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        server.change("k.bin", ["v": "1", "ranges": "always", "chunk": "1000000", "ms": "1"])
        let result = try Afget.run(arguments, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("k.bin").path), TestPayload.sha256(count: size, version: 1))
        XCTAssertTrue(result.stderr.contains("the file changed on the server (ETag W/"), result.stderr)
        XCTAssertEqual(listing(directory), ["k.bin"])
    }

    /// A 200 is the whole file: a part sent as a 200 with Content-Range was kept as the file.
    func testA200CarryingContentRangeFallsBackToOneCleanFullRequest() throws {
        try leaveHalfADownload()
        server.change("f.bin", ["crange200": "1"])
        let result = try afget()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertTrue(result.stderr.contains("a 200 (the whole file) with Content-Range"), result.stderr)
        XCTAssertNil(server.log.all.last?.header("Range"), "the last request is a clean full GET")
    }

    func testA200CarryingContentRangeIsNeverTheFile() throws {
        let result = try Afget.run(["-q", "--retry", "0", server.url("/file/c.bin?size=1000&crange200=all")], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("an inconsistent response: a 200 (the whole file) with Content-Range"), result.stderr)
        XCTAssertEqual(listing(directory), [])
    }

    /// Caddy: `-H 'Accept-Encoding: gzip'` and a continue sent two Accept-Encoding headers and
    /// got a gzip-coded part, appended to an identity part with exit 0.
    func testAContinueAsksForOneRepresentationAndRefusesAnother() throws {
        let gzip = ["-H", "Accept-Encoding: gzip"]
        try leaveHalfADownload("", gzip)
        server.change("f.bin", ["gzip206": "1"])
        let result = try afget("", gzip)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        let ranged = try XCTUnwrap(server.log.all.first { $0.header("Range") != nil })
        XCTAssertEqual(ranged.headers.filter { $0.name.lowercased() == "accept-encoding" }.map(\.value), ["identity"])
        XCTAssertTrue(
            result.stderr.contains(
                "the server sent another representation (Content-Encoding gzip where the part holds identity)"),
            result.stderr)
    }

    /// A content-coded body is never continued by a range: Caddy answered one with a gzip of a
    /// slice of the plain file, which was appended to the coded part. It starts over instead,
    /// and an interruption says why.
    func testAContentCodedBodyStartsOverInsteadOfContinuing() throws {
        let result = try afget("&coded=gzip", ["-H", "Accept-Encoding: gzip"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(server.log.all.map { $0.header("Range") }, [nil, nil], "no range of a coded body")

        let dripped = server.url("/file/d.bin?size=\(size)&chunk=20000&ms=50&coded=gzip")
        let (process, _, stderr) = try Afget.start(["-q", "-H", "Accept-Encoding: gzip", dripped], in: directory)
        // A body that cannot be continued keeps no part file: nothing of it is named on disk.
        let sentBefore = server.payloadBytesSent
        waitUntil("part of the body sent") { self.server.payloadBytesSent > sentBefore + 40_000 }
        XCTAssertFalse(exists(directory.appendingPathComponent("d.bin.afpart")))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertTrue(
            message.contains("d.bin cannot be continued (its body is gzip-coded, which a range cannot continue)"), message)
    }

    /// Twisted answers a range past the end of a file that shrank with 416, its new length and
    /// its new Last-Modified: the file changed, so the download starts over (it was exit 9,
    /// "the local part is larger than the remote file").
    func testA416ForAFileThatShrankStartsOver() throws {
        try leaveHalfADownload("&noetag=1&lmversion=1")
        server.change("f.bin", ["size": "1000", "v": "1", "ranges": "always"])
        let result = try afget("&noetag=1&lmversion=1")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: 1000, version: 1))
        XCTAssertTrue(result.stderr.contains("the file changed on the server (Last-Modified"), result.stderr)
    }

    /// A body that ends cleanly but short of its Content-Range (chunked, so libcurl cannot tell)
    /// is a short body to continue, never a finished file.
    func testA206ShorterThanItsRangeIsNeverSuccess() throws {
        try leaveHalfADownload()
        server.change("f.bin", ["nolength": "1", "short": "1000"])
        let result = try afget("", ["--retry", "1"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertTrue(result.stderr.contains("the body ended early: \(size - 1000) of \(size) bytes"), result.stderr)
        XCTAssertFalse(exists(destination))
        XCTAssertEqual(fileSize(part), size - 1000, "what arrived is kept for the next run")
    }

    /// Apache and lighttpd answer a range at the end with 416 and no `*/SIZE`. After a checksum
    /// mismatch the part is complete: the next run confirms it with a HEAD instead of
    /// downloading it all again.
    func testA416WithoutALengthIsConfirmedNotDownloadedAgain() throws {
        let file = server.url("/file/c.bin?size=\(size)&total416=none")
        let wrong = try Afget.run(["-q", "--checksum", "sha256=" + String(repeating: "0", count: 64), file], in: directory)
        XCTAssertEqual(wrong.status, 10, wrong.stderr)
        let before = server.log.all.count
        let right = try Afget.run(
            ["--progress", "line", "--checksum", "sha256=" + TestPayload.sha256(count: size), file],
            in: directory)
        XCTAssertEqual(right.status, 0, right.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("c.bin").path), TestPayload.sha256(count: size))
        XCTAssertEqual(
            server.log.all.dropFirst(before).map { "\($0.method) \($0.header("Range") ?? "-")" },
            ["GET bytes=\(size)-", "HEAD -"])
        XCTAssertTrue(right.stderr.contains("the part already holds the whole file"), right.stderr)
        XCTAssertEqual(listing(directory), ["c.bin"])
    }
}
