import Foundation
import TestServer
import XCTest

/// `--checksums FILE|URL` end to end: items checked against a sums file before they are moved
/// into place, by the bytes the server sent (SHA-256 of the files on disk checked here too).
final class ChecksumsFileTests: ServerTestCase {
    private let wrong = String(repeating: "0", count: 64)

    private func write(_ text: String, to name: String) throws {
        let file = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    private func sha(_ path: String) -> String? {
        sha256Hex(ofFile: directory.appendingPathComponent(path).path)
    }

    private func md5(count: Int) -> String {
        let digest = TestDigest.md5()
        digest.update(TestPayload.bytes(0..<count))
        return digest.hex()
    }

    private func summary(ofReport name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(report["summary"] as? [String: Any])
    }

    /// Both formats in one file, one hash wrong: that item fails (exit 10) with its data kept
    /// for a run with the right sums, the others are in place, exact.
    func testBothFormatsWithOneWrongHash() throws {
        try write(
            """
            \(TestPayload.sha256(count: 3000))  a.bin
            \(wrong) *b.bin
            MD5 (sub/c.bin) = \(md5(count: 5000))
            """, to: "SHA256SUMS")
        let urls = ["a.bin?size=3000", "b.bin?size=4000", "c.bin?size=5000"].map { server.url("/file/" + $0) }
        try write(urls[0] + "\n" + urls[1] + "\n" + urls[2] + "\n  dir=sub\n", to: "urls.txt")
        let result = try Afget.run(["-q", "-d", "out", "--checksums", "SHA256SUMS", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 10, result.stderr)
        XCTAssertEqual(sha("out/a.bin"), TestPayload.sha256(count: 3000))
        XCTAssertEqual(sha("out/sub/c.bin"), TestPayload.sha256(count: 5000))
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), ["a.bin", "b.bin.afpart", "b.bin.afresume", "sub"])
        XCTAssertEqual(sha("out/b.bin.afpart"), TestPayload.sha256(count: 4000), "the data is kept")
        let failures = result.stderrLines.filter {
            $0.hasPrefix("afget: \(urls[1]): checksum mismatch: expected sha-256 \(wrong) (SHA256SUMS:2), got ")
        }
        XCTAssertEqual(failures.count, 1, result.stderr)

        // The right hash finishes it from the part file, without downloading it again.
        try write("\(TestPayload.sha256(count: 4000))  b.bin\n", to: "SHA256SUMS")
        let requests = server.log.all.count
        let again = try Afget.run(["-q", "-d", "out", "--checksums", "SHA256SUMS", urls[1]], in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(sha("out/b.bin"), TestPayload.sha256(count: 4000))
        XCTAssertEqual(server.log.all.dropFirst(requests).map { $0.header("Range") }, ["bytes=4000-"])
    }

    /// A sums file at a URL is fetched first, through the run's settings (its `-H` header);
    /// a list line's checksum= wins over it; an item it does not name is downloaded and
    /// counted once in the summary, or with --require-checksums fails without a request.
    func testFetchedFromAURLWithItemsItDoesNotName() throws {
        let sums = "\(wrong)  a.bin\n\(TestPayload.sha256(count: 2000))  b.bin\n"
        server.publish(Array(sums.utf8), at: "/site/example.org/SHA256SUMS")
        let sumsURL = server.url("/site/example.org/SHA256SUMS")
        let urls = ["a.bin?size=1000", "b.bin?size=2000", "d.bin?size=3000"].map { server.url("/file/" + $0) }
        try write(
            "\(urls[0])\n  checksum=sha-256=\(TestPayload.sha256(count: 1000))\n\(urls[1])\n\(urls[2])\n", to: "urls.txt")
        let result = try Afget.run(
            [
                "--progress", "line", "-j", "1", "-H", "X-Team: data", "--checksums", sumsURL, "-i", "urls.txt",
                "--report", "report.json",
            ],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.first?.uri, "/site/example.org/SHA256SUMS", "fetched before any item")
        XCTAssertEqual(server.log.all.first?.header("X-Team"), "data")
        XCTAssertEqual(sha("a.bin"), TestPayload.sha256(count: 1000))
        XCTAssertEqual(sha("b.bin"), TestPayload.sha256(count: 2000))
        XCTAssertEqual(sha("d.bin"), TestPayload.sha256(count: 3000))
        XCTAssertEqual(result.stderrLines.filter { $0.contains("not in SHA256SUMS") }.count, 1, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("afget: 3 downloaded, 0 skipped, 0 failed;")
                && result.stderr.contains("; 1 file not in SHA256SUMS, not checked\n"), result.stderr)
        XCTAssertEqual(try summary(ofReport: "report.json")["not_in_checksums"] as? Int, 1)

        try FileManager.default.removeItem(at: directory.appendingPathComponent("d.bin"))
        let requests = server.log.all.count
        let required = try Afget.run(["-q", "--checksums", sumsURL, "--require-checksums", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(required.status, 10, required.stderr)
        XCTAssertEqual(
            required.stderrLines.first,
            "afget: d.bin: SHA256SUMS does not name this file, so it cannot be checked (--require-checksums); not downloaded")
        XCTAssertEqual(required.stderrLines.dropFirst().first?.hasPrefix("afget: 0 downloaded, 2 skipped, 1 failed;"), true)
        XCTAssertEqual(server.log.all.dropFirst(requests).map(\.uri), ["/site/example.org/SHA256SUMS"])
        XCTAssertEqual(listing(directory).filter { $0.hasPrefix("d.bin") }, [])
    }

    /// An existing destination the sums file names is read once and checked, not trusted by its
    /// name: a changed one is exit 10 and left as it is, nothing fetched.
    func testAnExistingFileWithWrongContentIsFound() throws {
        try write(
            "SHA256 (a.bin) = \(TestPayload.sha256(count: 3000))\nSHA256 (b.bin) = \(TestPayload.sha256(count: 4000))\n",
            to: "SUMS")
        let urls = [server.url("/file/a.bin?size=3000"), server.url("/file/b.bin?size=4000")]
        let first = try Afget.run(["-q", "--checksums", "SUMS"] + urls, in: directory)
        XCTAssertEqual(first.status, 0, first.stderr)
        try Data("changed".utf8).write(to: directory.appendingPathComponent("b.bin"))
        let requests = server.log.all.count

        let second = try Afget.run(["--progress", "line", "--checksums", "SUMS"] + urls, in: directory)
        XCTAssertEqual(second.status, 10, second.stderr)
        XCTAssertTrue(second.stderr.contains("skipping a.bin: already exists and matches its sha-256 checksum"), second.stderr)
        XCTAssertEqual(
            second.stderrLines.filter { $0.hasPrefix("afget: b.bin: exists but does not match") }.count, 1, second.stderr)
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("b.bin"), encoding: .utf8), "changed")
        XCTAssertEqual(server.log.all.count, requests, "nothing fetched")

        // With --on-exists update the server's 304 and a HEAD's length say the copy is current
        // (a copy of another length is fetched again), not that its bytes are right: it is
        // read and checked too.
        let sameLength = Data(repeating: UInt8(ascii: "x"), count: 4000)
        try sameLength.write(to: directory.appendingPathComponent("b.bin"))
        let update = try Afget.run(["-q", "--on-exists", "update", "--checksums", "SUMS", urls[1]], in: directory)
        XCTAssertEqual(update.status, 10, update.stderr)
        XCTAssertTrue(update.stderr.hasPrefix("afget: b.bin: exists but does not match"), update.stderr)
        XCTAssertTrue(server.log.all.contains { $0.header("If-Modified-Since") != nil }, "asked conditionally")
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("b.bin")), sameLength)
    }

    /// A line that is neither format: one line naming the file and line, exit 2, no request.
    func testAMalformedLineStopsTheRunBeforeAnyTransfer() throws {
        try write("\(TestPayload.sha256(count: 10))  a.bin\n\n\(TestPayload.sha256(count: 10)) b.bin\n", to: "SHA256SUMS")
        let result = try Afget.run(
            ["--checksums", "SHA256SUMS", server.url("/file/a.bin?size=10"), server.url("/file/b.bin?size=10")], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(
            result.stderrLines, ["afget: SHA256SUMS:3: expected two spaces, or a space and *, between the hash and the name"])
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(listing(directory), ["SHA256SUMS"])
    }

    /// With `-J` the item is found by its URL's name; a file under the server's name that
    /// `--on-exists skip` keeps must match that checksum too.
    func testAFileKeptUnderTheServersNameIsChecked() throws {
        try write("mine", to: "work/taken.txt")
        try write("\(TestPayload.sha256(count: 100))  u.bin\n", to: "SHA256SUMS")
        let url = server.url("/disposition/u.bin?size=100&cd=attachment%3B%20filename%3Dtaken.txt")
        let result = try Afget.run(["-q", "-J", "-d", "work", "--checksums", "SHA256SUMS", url], in: directory)
        XCTAssertEqual(result.status, 10, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("afget: work/taken.txt: exists but does not match"), result.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("work")), ["taken.txt"])
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("work/taken.txt"), encoding: .utf8), "mine")
    }

    /// `-c` takes a file of the server's length whose last 64 KiB match for complete; with a
    /// checksum (the sums file's, or `--checksum`) it is read once and must match it too.
    func testAFileContinueFindsCompleteIsCheckedToo() throws {
        let size = 200_000
        var bytes = TestPayload.bytes(0..<size)
        bytes[10] ^= 0xFF
        try Data(bytes).write(to: directory.appendingPathComponent("one.bin"))
        try write("\(TestPayload.sha256(count: size))  one.bin\n", to: "SHA256SUMS")
        let url = server.url("/file/one.bin?size=\(size)")
        for checking in [["--checksums", "SHA256SUMS"], ["--checksum", "sha-256=\(TestPayload.sha256(count: size))"]] {
            let result = try Afget.run(["-c", "-q"] + checking + [url], in: directory)
            XCTAssertEqual(result.status, 10, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("afget: one.bin: exists but does not match"), result.stderr)
            XCTAssertEqual(sha("one.bin"), sha256Hex(bytes), "left as it is")
        }
    }

    /// A download continued from an earlier run is checked over the whole file, not the part
    /// that arrived in the second run.
    func testAContinuedFileIsCheckedWhole() throws {
        let size = 3_000_000
        let url = server.url("/flaky/f.bin?size=\(size)&fail=1&mode=drop")
        try leaveHalfADownload(of: url, named: "f.bin", size: size)
        try write("\(TestPayload.sha256(count: size))  f.bin\n", to: "SHA256SUMS")
        let result = try Afget.run(["-q", "--checksums", "SHA256SUMS", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.last?.header("Range"), "bytes=\(size / 2)-", "continued, not started over")
        XCTAssertEqual(sha("f.bin"), TestPayload.sha256(count: size))
    }
}
