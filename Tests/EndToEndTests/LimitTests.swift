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
        let (process, _, stderr) = try Afget.start(["-q", "--compressed", "--max-size", "10M", "-o", "out/bomb.bin",
                                                    encodedURL("bomb.gz")], in: directory)
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

    func testTooManyStackedEncodingsAreRefused() throws {
        try Data("x".utf8).write(to: directory.appendingPathComponent("body"))
        let result = try Afget.run(["-q", "--compressed", "-o", "out/x.bin",
                                    encodedURL("body", encoding: "gzip,%20gzip,%20gzip,%20gzip,%20gzip,%20gzip")], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(result.stderr.contains("content encodings"), result.stderr)  // afget's limit or libcurl's, whichever comes first
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), [])
    }

    func testAnAnnouncedLengthOverTheLimitIsRefusedBeforeTheBody() throws {
        let download = try Afget.run(["-q", "--max-size", "1000", "-o", "out/x.bin", server.url("/file/x.bin?size=5000")],
                                     in: directory)
        XCTAssertEqual(download.status, 7, download.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), [])
        let fits = try Afget.run(["-q", "--max-size", "5000", "-o", "out/x.bin", server.url("/file/x.bin?size=5000")],
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
        for (query, problem) in [("length2=7", "conflicting Content-Length values: 5000, 7"),
                                 ("nolength=1&length2=99999999999999999999", "malformed Content-Length \"99999999999999999999\"")] {
            let result = try Afget.run(["-q", server.url("/file/cl.bin?size=5000&\(query)")], in: directory)
            XCTAssertEqual(result.status, 7, result.stderr)
            XCTAssertEqual(result.stderrLines, ["afget: \(server.url("/file/cl.bin?size=5000&\(query)")): \(problem)"])
            XCTAssertEqual(listing(directory), [], query)
        }
        let agreeing = try Afget.run(["-q", server.url("/file/cl.bin?size=5000&length2=5000")], in: directory)
        XCTAssertEqual(agreeing.status, 0, agreeing.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("cl.bin").path), TestPayload.sha256(count: 5000))
    }

    func testLimitRateHoldsTheTransferBackAndItStaysExact() throws {
        // A lower bound only: 1.5 MB at 1 MiB/s cannot take less than about 1.4 s, whatever the
        // machine (a burst of a tenth of a second is allowed).
        let size = 1_500_000
        let started = Date()
        let result = try Afget.run(["-q", "--limit-rate", "1M", "-o", "x.bin", server.url("/file/x.bin?size=\(size)")],
                                   in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.2)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("x.bin").path), TestPayload.sha256(count: size))
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
