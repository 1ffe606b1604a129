import Foundation
import Glibc
import TestServer
import XCTest

/// Limits afget enforces itself: `--max-size` (after decoding), stacked encodings, broken
/// compressed bodies. Each exits 7 and leaves no file behind.
final class LimitTests: ServerTestCase {
    /// Runs a shell command in the test directory (to make gzip data with gzip(1)).
    private func shell(_ command: String) throws {
        let (status, stderr) = try runShell(command, in: directory)
        XCTAssertEqual(status, 0, "\(command): \(stderr)")
    }

    private func encodedURL(_ file: String, encoding: String = "gzip") -> String {
        server.url("/encoded?file=" + directory.appendingPathComponent(file).path + "&encoding=" + encoding)
    }

    func testACompressedBodyIsDecoded() throws {
        let original = Data(TestPayload.bytes(0..<300_000))
        try original.write(to: directory.appendingPathComponent("original"))
        try shell("gzip -c original > body.gz")
        let result = try Afget.run(["-q", "--compressed", "-o", "out/plain.bin", encodedURL("body.gz")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("out/plain.bin").path), sha256Hex(original))
        XCTAssertEqual(server.log.all.first?.header("Accept-Encoding")?.contains("gzip"), true)
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), ["plain.bin"], "no resume data for a decoded body")
    }

    func testADecompressionBombStopsAtTheLimitWithFlatMemory() throws {
        try shell("head -c 536870912 /dev/zero | gzip -1 > bomb.gz")
        let (process, _, stderr) = try Afget.start(
            [
                "-q", "--compressed", "--max-size", "10M", "-o", "out/bomb.bin",
                encodedURL("bomb.gz"),
            ], in: directory)
        var peakKiB = 0
        while process.isRunning {
            if let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            {
                peakKiB = max(peakKiB, kib)
            }
            usleep(10_000)
        }
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 7, message)
        XCTAssertTrue(message.contains("--max-size"), message)
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), [], "nothing kept of a refused body")
        XCTAssertLessThan(peakKiB, 64 << 10)
    }

    func testABrokenCompressedBodyExits7AndLeavesNothing() throws {
        let original = Data(TestPayload.bytes(0..<200_000))
        try original.write(to: directory.appendingPathComponent("original"))
        try shell("gzip -c original > good.gz")
        var broken = try Data(contentsOf: directory.appendingPathComponent("good.gz"))
        for index in stride(from: 100, to: 2000, by: 7) { broken[index] ^= 0x5A }
        try broken.write(to: directory.appendingPathComponent("broken.gz"))
        let result = try Afget.run(["-q", "--compressed", "-o", "out/x.bin", encodedURL("broken.gz")], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), [])
    }

    /// libcurl took a gzip stream cut before its trailer, or followed by other bytes, for a
    /// whole body: exit 0 with a file that is not the server's.
    func testATruncatedOrOverlongGzipStreamExits7AndLeavesNothing() throws {
        let original = Data(TestPayload.bytes(0..<200_000))
        try original.write(to: directory.appendingPathComponent("original"))
        try shell("gzip -c original > good.gz")
        let good = try Data(contentsOf: directory.appendingPathComponent("good.gz"))
        try good.dropLast(4).write(to: directory.appendingPathComponent("truncated.gz"))
        try (good + Data("trailing garbage".utf8)).write(to: directory.appendingPathComponent("garbage.gz"))
        for (file, problem) in [
            ("truncated.gz", "the gzip stream is truncated"), ("garbage.gz", "data after the end of the gzip stream"),
        ] {
            let result = try Afget.run(["-q", "--compressed", "-o", "out/x.bin", encodedURL(file)], in: directory)
            XCTAssertEqual(result.status, 7, "\(file): \(result.stderr)")
            XCTAssertEqual(result.stderrLines, ["afget: \(encodedURL(file)): \(problem)"])
            XCTAssertEqual(listing(directory.appendingPathComponent("out")), [], file)
        }
    }

    /// Several gzip members are one body (as gzip -d reads them); deflate comes zlib-wrapped
    /// or, from some servers, raw.
    func testGzipMembersAndBothDeflateFormsAreDecoded() throws {
        try Data("first ".utf8).write(to: directory.appendingPathComponent("a"))
        try Data("second".utf8).write(to: directory.appendingPathComponent("b"))
        try shell("gzip -c a > members.gz && gzip -c b >> members.gz")
        try shell("python3 -c 'import zlib,sys; sys.stdout.buffer.write(zlib.compress(b\"first second\"))' > zlib.bin")
        try shell(
            "python3 -c 'import zlib,sys; c=zlib.compressobj(wbits=-15); "
                + "sys.stdout.buffer.write(c.compress(b\"first second\")+c.flush())' > raw.bin")
        for (file, encoding) in [("members.gz", "gzip"), ("zlib.bin", "deflate"), ("raw.bin", "deflate")] {
            let result = try Afget.run(
                ["-q", "--compressed", "-o", "out/" + file, encodedURL(file, encoding: encoding)], in: directory)
            XCTAssertEqual(result.status, 0, "\(file): \(result.stderr)")
            XCTAssertEqual(
                try String(contentsOf: directory.appendingPathComponent("out/" + file), encoding: .utf8), "first second", file)
        }
    }

    /// A body in a coding afget cannot undo is refused, not written as if it were the file.
    func testACodingAfgetCannotDecodeIsRefused() throws {
        try Data("x".utf8).write(to: directory.appendingPathComponent("body"))
        let result = try Afget.run(["-q", "--compressed", "-o", "out/x.bin", encodedURL("body", encoding: "br")], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(result.stderr.contains("the body is encoded as br, which afget does not decode"), result.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), [])
    }

    /// Ctrl-C while a decompression bomb is decoded: libcurl decoded a whole receive buffer
    /// (gigabytes) before afget could look, about 9 s. Each decoded piece now looks first.
    func testCtrlCStopsADecompressionBombAtOnce() throws {
        try shell("head -c 67108864 /dev/zero | gzip -1 > member.gz && for i in $(seq 256); do cat member.gz; done > bomb.gz")
        let output = directory.appendingPathComponent("out/bomb.bin")
        let (process, _, stderr) = try Afget.start(
            [
                "--progress", "line", "--compressed", "-o", "out/bomb.bin",
                encodedURL("bomb.gz"),
            ], in: directory)
        waitUntil("decoded bytes on disk") { (fileSize(directory.appendingPathComponent("out/bomb.bin.afpart")) ?? 0) > 64 << 20 }
        let signaled = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(signaled), 1.5, "16 GiB to decode: only a prompt stop ends in time")
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 130, message)
        XCTAssertFalse(exists(output))
    }

    func testTooManyStackedEncodingsAreRefused() throws {
        try Data("x".utf8).write(to: directory.appendingPathComponent("body"))
        let result = try Afget.run(
            [
                "-q", "--compressed", "-o", "out/x.bin",
                encodedURL("body", encoding: "gzip,%20gzip,%20gzip,%20gzip,%20gzip,%20gzip"),
            ], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        // afget's limit or libcurl's, whichever comes first
        XCTAssertTrue(result.stderr.contains("content encodings"), result.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), [])
    }

    func testAnAnnouncedLengthOverTheLimitIsRefusedBeforeTheBody() throws {
        let download = try Afget.run(
            ["-q", "--max-size", "1000", "-o", "out/x.bin", server.url("/file/x.bin?size=5000")],
            in: directory)
        XCTAssertEqual(download.status, 7, download.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), [])
        let fits = try Afget.run(
            ["-q", "--max-size", "5000", "-o", "out/x.bin", server.url("/file/x.bin?size=5000")],
            in: directory)
        XCTAssertEqual(fits.status, 0, fits.stderr)
        let request = try Afget.run(["request", "--max-size", "1K", server.url("/file/y.bin?size=5000")], in: directory)
        XCTAssertEqual(request.status, 7, request.stderr)
        XCTAssertEqual(request.stdout.count, 0)
    }

    /// RFC 9112 §6.3: Content-Length values that disagree, or one that is no count, make the
    /// response unusable. libcurl took the last of two, or read an overflowing one as "unknown"
    /// and kept whatever came as the whole file (exit 0).
    func testAContentLengthThatCannotBeTrustedExits7AndLeavesNothing() throws {
        for (query, problem) in [
            ("length2=7", "conflicting Content-Length values: 5000, 7"),
            ("nolength=1&length2=99999999999999999999", "malformed Content-Length \"99999999999999999999\""),
        ] {
            let result = try Afget.run(["-q", server.url("/file/cl.bin?size=5000&\(query)")], in: directory)
            XCTAssertEqual(result.status, 7, result.stderr)
            XCTAssertEqual(result.stderrLines, ["afget: \(server.url("/file/cl.bin?size=5000&\(query)")): \(problem)"])
            XCTAssertEqual(listing(directory), [], query)
        }
        let agreeing = try Afget.run(["-q", server.url("/file/cl.bin?size=5000&length2=5000")], in: directory)
        XCTAssertEqual(agreeing.status, 0, agreeing.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("cl.bin").path), TestPayload.sha256(count: 5000))
    }

    /// `-m` limits the whole item: a slow download stops at the limit (exit 4) with its data
    /// kept, and the same command without it finishes the file exactly; a retry's wait is cut
    /// short by the limit too.
    func testMaxTimeEndsTheItemAndKeepsItsData() throws {
        let size = 3_000_000
        let url = server.url("/file/m.bin?size=\(size)&chunk=20000&ms=20")  // about 1 MB/s
        let limited = try Afget.run(["--progress", "line", "-m", "1", url], in: directory)
        XCTAssertEqual(limited.status, 4, limited.stderr)
        XCTAssertTrue(limited.stderr.contains("took longer than --max-time (1 s)"), limited.stderr)
        XCTAssertEqual(listing(directory), ["m.bin.afpart", "m.bin.afresume"])

        let rest = try Afget.run(["-q", url], in: directory)
        XCTAssertEqual(rest.status, 0, rest.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("m.bin").path), TestPayload.sha256(count: size))

        let started = Date()
        let waiting = try Afget.run(
            ["--progress", "line", "-m", "1", "--retry-delay", "30", server.url("/drop/d.bin?size=100000&after=1000")],
            in: directory)
        XCTAssertEqual(waiting.status, 4, waiting.stderr)
        XCTAssertTrue(waiting.stderr.contains("took longer than --max-time (1 s)"), waiting.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "the 30 s wait was cut short")

        let request = try Afget.run(
            ["request", "-m", "1", server.url("/file/r.bin?size=\(size)&chunk=20000&ms=20")], in: directory)
        XCTAssertEqual(request.status, 4, request.stderr)
        XCTAssertTrue(request.stderr.contains("took longer than --max-time (1 s)"), request.stderr)
    }

    func testLimitRateHoldsTheTransferBackAndItStaysExact() throws {
        // A lower bound only: 1.5 MB at 1 MiB/s cannot take less than about 1.4 s, whatever the
        // machine (a burst of a tenth of a second is allowed).
        let size = 1_500_000
        let started = Date()
        let result = try Afget.run(
            ["-q", "--limit-rate", "1M", "-o", "x.bin", server.url("/file/x.bin?size=\(size)")],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.2)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("x.bin").path), TestPayload.sha256(count: size))
    }

    /// `--limit-total-rate` bounds the whole run, however many transfers share it: four files
    /// of 400 000 bytes at once, 512 KiB/s in all, take about three seconds (each at its own
    /// `--limit-rate 512K`, under one), and every one of them arrives whole.
    func testTheTotalRateLimitBoundsEveryTransferTogether() throws {
        let size = 400_000
        let urls = (0..<4).map { server.url("/file/t\($0).bin?size=\(size)") }
        let started = Date()
        let result = try Afget.run(["-q", "-j", "4", "--limit-total-rate", "512K"] + urls, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 2.4)
        for index in 0..<4 {
            XCTAssertEqual(
                sha256Hex(ofFile: directory.appendingPathComponent("t\(index).bin").path), TestPayload.sha256(count: size))
        }
        let tooLow = try Afget.run(["--limit-total-rate", "100", urls[0]], in: directory)
        XCTAssertEqual(tooLow.status, 2)
        XCTAssertTrue(tooLow.stderr.contains("--limit-total-rate must be at least 1K, or 0 for no limit"), tooLow.stderr)
    }

    func testAHeaderBombIsRefused() throws {
        let result = try Afget.run(["-q", "-o", "x.bin", server.url("/headers?count=3000&bytes=10")], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(result.stderr.contains("limits"), result.stderr)
        XCTAssertEqual(listing(directory), [])
    }

    /// libcurl stops a line over 100 KiB before afget sees it, as "Out of memory": that was
    /// exit 1, the code for afget's own bugs.
    func testAHeaderLineOverTheLimitIsAProtocolError() throws {
        let result = try Afget.run(["-q", "-o", "x.bin", server.url("/headers?count=1&bytes=150000")], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("a response header line is longer than 100 KiB (afget's limit)"), result.stderr)
        XCTAssertEqual(listing(directory), [])
    }
}
