import Foundation
import TestServer
import XCTest

/// The last step, the move of a complete part file into place, failing: the data is kept,
/// and the next run only moves it there.
final class FinalMoveTests: ServerTestCase {
    /// A small file (no resume data while it downloads) whose destination is taken by a
    /// directory while the body arrives: exit 3 with the data kept, and once the directory is
    /// gone the next run asks only for what is past the end (416) and moves the file into place.
    /// A file that appears at the destination while a large download (a named part file) runs
    /// is someone else's: the move into place leaves it as it is, the data stays in the part file.
    func testAFileThatAppearsWhileALargeDownloadRunsIsLeftAsItIs() throws {
        let url = server.url("/file/big.bin?size=2000000&chunk=100000&ms=50")
        let (process, _, stderr) = try Afget.start(["--progress", "line", url], in: directory)
        waitUntil("the part file has its name") { listing(self.directory).contains("big.bin.afpart") }
        let theirs = directory.appendingPathComponent("big.bin")
        try Data("someone else's".utf8).write(to: theirs)
        process.waitUntilExit()
        let messages = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 0, messages)
        XCTAssertEqual(try Data(contentsOf: theirs), Data("someone else's".utf8), "never replaced")
        XCTAssertTrue(messages.contains("afget: skipping big.bin: another download put it in place first"), messages)
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("big.bin.afpart").path), TestPayload.sha256(count: 2_000_000),
            "the download is kept in its part file")
    }

    func testASmallFileWhoseMoveFailsIsOnlyMovedIntoPlaceByTheNextRun() throws {
        let size = 100_000
        // The first quarter at once, the rest over about a second.
        let url = server.url("/file/small.bin?size=\(size)&chunk=25000&ms=400")
        let destination = directory.appendingPathComponent("small.bin")
        let (process, _, stderr) = try Afget.start(["-q", url], in: directory)
        waitUntil("the body started") { self.server.payloadBytesSent > 0 }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 3)
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(
            message,
            "afget: small.bin: cannot move small.bin.afpart to small.bin: Is a directory; the data is kept in "
                + "small.bin.afpart; run the same command again to move it into place\n")
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("small.bin.afpart").path), TestPayload.sha256(count: size))

        // Still a directory: refused before any request, the data stays.
        let requests = server.log.all.count
        let refused = try Afget.run(["-q", url], in: directory)
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertEqual(server.log.all.count, requests)

        try FileManager.default.removeItem(at: destination)
        let result = try Afget.run(["-q", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["small.bin"])
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        let asked = server.log.all.dropFirst(requests)
        XCTAssertEqual(asked.map { $0.header("Range") }, ["bytes=\(size)-"], "nothing is downloaded again")
    }

    /// The directory itself refuses new names as the body arrives (immutable here, which holds
    /// for root too; read-only for others): DEST.afresume cannot be written either, so the
    /// resume data is kept on the part file, and the next run only moves it into place. This
    /// needs a named part file from the start: where files with no name are made, a small body
    /// has no name yet, and such a directory leaves it nowhere to go (it starts over next run).
    func testASmallFileWhoseDirectoryTurnsReadOnlyIsOnlyMovedIntoPlaceByTheNextRun() throws {
        let named = ["AFGET_NO_ANONYMOUS_FILES": "1"]
        let size = 100_000
        let url = server.url("/file/small.bin?size=\(size)&chunk=25000&ms=400")
        let folder = directory.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let (process, _, stderr) = try Afget.start(["-q", "-d", "d", url], in: directory, environment: named)
        waitUntil("the body started") { (fileSize(folder.appendingPathComponent("small.bin.afpart")) ?? 0) > 0 }
        guard try runShell("chattr +i d", in: directory).status == 0 else {
            process.waitUntilExit()
            throw XCTSkip("chattr +i is not available here")
        }
        defer { _ = try? runShell("chattr -i d", in: directory) }
        process.waitUntilExit()
        let message = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 3, message)
        XCTAssertTrue(message.hasSuffix("; run the same command again to move it into place\n"), message)
        XCTAssertEqual(try runShell("chattr -i d", in: directory).status, 0)
        XCTAssertEqual(listing(folder), ["small.bin.afpart"])

        let requests = server.log.all.count
        let result = try Afget.run(["-q", "-d", "d", url], in: directory, environment: named)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(folder), ["small.bin"])
        let destination = folder.appendingPathComponent("small.bin")
        XCTAssertEqual(sha256Hex(ofFile: destination.path), TestPayload.sha256(count: size))
        XCTAssertEqual(
            server.log.all.dropFirst(requests).map { $0.header("Range") }, ["bytes=\(size)-"], "nothing is downloaded again")
        let attributes = try runShell("python3 -c \"import os; assert os.listxattr('d/small.bin') == []\"", in: directory)
        XCTAssertEqual(attributes.status, 0, "the file carries nothing of afget's: \(attributes.stderr)")
    }
}
