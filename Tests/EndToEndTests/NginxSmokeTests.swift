import Foundation
import TestServer
import XCTest

/// afget against a real, independent server: Debian's nginx.
final class NginxSmokeTests: XCTestCase {
    func testLargeFileFromNginxArrivesExact() throws {
        let nginx = try NginxServer()
        let source = nginx.root.appendingPathComponent("large.bin")
        // 96 MiB of random bytes: big enough to cross many receive buffers and progress reports.
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/head")
        generator.arguments = ["-c", "\(96 << 20)", "/dev/urandom"]
        _ = FileManager.default.createFile(atPath: source.path, contents: nil)
        generator.standardOutput = try FileHandle(forWritingTo: source)
        try generator.run()
        generator.waitUntilExit()
        let expected = try XCTUnwrap(sha256Hex(ofFile: source.path))

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
}
