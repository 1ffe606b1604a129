import Foundation
import TestServer
import XCTest

/// afget against a real, independent server: Debian's nginx.
final class NginxSmokeTests: XCTestCase {
    func testLargeFileFromNginxArrivesExact() throws {
        let nginx = try NginxServer()
        let source = nginx.root.appendingPathComponent("large.bin")
        // 96 MiB of random bytes: big enough to cross many receive buffers and progress reports.
        let expected = try writeRandomFile(source, bytes: 96 << 20)

        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Afget.run(["--progress", "line", nginx.url("/large.bin")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["large.bin"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("large.bin").path), expected)
        XCTAssertFalse(result.stderr.contains("\r"))

        let missing = try Afget.run(["-q", nginx.url("/missing.bin")], in: directory)
        XCTAssertEqual(missing.status, 8)
        XCTAssertEqual(listing(directory), ["large.bin"])
    }

    /// `-s 4` over HTTPS where nginx offers HTTP/2: four connections of its own (not four streams
    /// on one, which a per-connection limit would hold to one's speed), bounded ranges, and each
    /// byte of the file sent once.
    func testASplitDownloadOverHTTP2UsesFourConnectionsAndSendsEachByteOnce() throws {
        let nginx = try NginxServer()
        let size = 16 << 20
        let expected = try writeRandomFile(nginx.root.appendingPathComponent("split.bin"), bytes: size)
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Afget.run(
            ["-q", "-s", "4", "--cacert", TestCertificates.shared.caPath, nginx.tlsURL("/slow/split.bin")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("split.bin").path), expected)
        let responses = nginx.loggedResponses()
        XCTAssertEqual(Set(responses.map(\.connection)).count, 4, "\(responses.map { ($0.connection, $0.range) })")
        XCTAssertTrue(responses.allSatisfy { $0.range.wholeMatch(of: /bytes=\d+-\d+/) != nil }, "\(responses.map(\.range))")
        let sent = responses.reduce(0) { $0 + $1.bytesSent }
        XCTAssertLessThanOrEqual(Double(sent), Double(size) * 1.01, "bytes on the wire, headers included")
    }

    /// Small files over HTTPS, where nginx offers HTTP/2, eight at once: the easy handles kept
    /// for the next items carry their receive buffer over, and the next item's options must
    /// not ask libcurl to size it again (libcurl 7.88 refuses; afget stopped with a fatal
    /// error, found by the bench's small-tls case). Every file arrives exact, exit 0.
    func testManySmallFilesOverHTTP2ReuseTheirHandles() throws {
        let nginx = try NginxServer()
        let files = nginx.root.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        var expected: [String: String] = [:]
        for index in 1...120 {
            expected["f\(index).bin"] = try writeRandomFile(files.appendingPathComponent("f\(index).bin"), bytes: 16 << 10)
        }
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("list.txt")
        try (1...120).map { nginx.tlsURL("/small/f\($0).bin") }.joined(separator: "\n").write(
            to: list, atomically: true, encoding: .utf8)
        let result = try Afget.run(
            ["-q", "-j", "8", "--cacert", TestCertificates.shared.caPath, "-d", "out", "-i", list.path], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        let out = directory.appendingPathComponent("out")
        XCTAssertEqual(Set(listing(out)), Set(expected.keys))
        for (name, hash) in expected {
            XCTAssertEqual(sha256Hex(ofFile: out.appendingPathComponent(name).path), hash, name)
        }
    }

    /// A long list with `-j 8` is carried by eight kept-alive connections: libcurl's default
    /// would close idle connections whenever few transfers happened to be running as one ended,
    /// and open new ones for the items after.
    func testALongListReusesAsManyConnectionsAsItRunsAtOnce() throws {
        let nginx = try NginxServer()
        let files = nginx.root.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let count = 2000
        let list = (1...count).map { nginx.url("/many/f\($0).txt") }.joined(separator: "\n")
        for index in 1...count {
            try Data("file \(index)\n".utf8).write(to: files.appendingPathComponent("f\(index).txt"))
        }
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try list.write(to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)

        let result = try Afget.run(["-q", "-j", "8", "-d", "out", "-i", "list.txt"], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        let out = directory.appendingPathComponent("out")
        XCTAssertEqual(listing(out).count, count)
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("f1234.txt"), encoding: .utf8), "file 1234\n")
        let connections = Set(nginx.loggedResponses().map(\.connection))
        XCTAssertLessThanOrEqual(connections.count, 8, "connections opened for \(count) items at -j 8")
    }

    func testInterruptedDownloadFromNginxContinuesExactly() throws {
        let nginx = try NginxServer()
        let expected = try writeRandomFile(nginx.root.appendingPathComponent("medium.bin"), bytes: 8 << 20)
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = nginx.url("/slow/medium.bin")  // 4 MB/s: about two seconds in all

        let (process, _, _) = try Afget.start(["-q", url], in: directory)
        waitUntil("a checkpoint beyond 1 MiB") {
            (checkpointedBytes(directory.appendingPathComponent("medium.bin.afresume")) ?? 0) > 1 << 20
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertEqual(listing(directory), ["medium.bin.afpart", "medium.bin.afresume"])

        let result = try Afget.run(["--progress", "line", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("continuing at"), result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("medium.bin").path), expected)
        XCTAssertEqual(listing(directory), ["medium.bin"])
    }

    /// Fills `url` with random bytes (readable by nginx's workers) and returns their SHA-256.
    private func writeRandomFile(_ url: URL, bytes: Int) throws -> String {
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/head")
        generator.arguments = ["-c", "\(bytes)", "/dev/urandom"]
        _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o644])
        generator.standardOutput = try FileHandle(forWritingTo: url)
        try generator.run()
        generator.waitUntilExit()
        return try XCTUnwrap(sha256Hex(ofFile: url.path))
    }

    func testUploadToNginxWebDAVReadsBackExact() throws {
        let nginx = try NginxServer()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = Data(TestPayload.bytes(0..<(24 << 20)))
        try data.write(to: directory.appendingPathComponent("up.bin"))
        let upload = try Afget.run(["upload", "-q", "up.bin", nginx.url("/dav/in/")], in: directory)
        XCTAssertEqual(upload.status, 0, upload.stderr)
        XCTAssertEqual(sha256Hex(ofFile: nginx.root.appendingPathComponent("dav/in/up.bin").path), sha256Hex(data))
        let back = try Afget.run(["-q", "-o", "back.bin", nginx.url("/dav/in/up.bin")], in: directory)
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("back.bin").path), sha256Hex(data))
    }
}
