import Foundation
import TestServer
import XCTest

/// `--on-exists`: what happens to a destination that is already there.
final class OnExistsTests: ServerTestCase {
    var existing: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        existing = directory.appendingPathComponent("f.bin")
        try Data("old".utf8).write(to: existing)
    }

    private var url: String { server.url("/file/f.bin?size=5000") }

    func testSkipIsTheDefaultWithANotice() throws {
        let result = try Afget.run(["--progress", "line", url], in: directory)
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "old")
        XCTAssertEqual(result.stderrLines, ["afget: skipping f.bin: already exists (see --on-exists)"])
        XCTAssertEqual(server.log.all.count, 0, "nothing is requested")

        // A part file left beside it by an unfinished download is mentioned, and kept.
        try Data("part".utf8).write(to: directory.appendingPathComponent("f.bin.afpart"))
        let again = try Afget.run(["--progress", "line", url], in: directory)
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(
            again.stderrLines,
            [
                "afget: skipping f.bin: already exists; f.bin.afpart beside it is from an "
                    + "unfinished download and is left as it is (see --on-exists)"
            ])
        XCTAssertEqual(listing(directory), ["f.bin", "f.bin.afpart"])
    }

    /// `-q` shows failures only; a batch that shows one ends with its summary line, which counts
    /// the items skipped as already there: before, they went unmentioned anywhere. A batch with
    /// nothing to show stays silent.
    func testQuietCountsSkippedItemsInTheSummaryWhenItSaysAnything() throws {
        let missing = server.url("/status/404")
        let result = try Afget.run(["-q", url, server.url("/file/new.bin?size=10"), missing], in: directory)
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 2, result.stderr)
        XCTAssertEqual(result.stderrLines.first, "afget: \(missing): HTTP 404 Not Found")
        XCTAssertTrue(
            result.stderrLines.last?.hasPrefix("afget: 1 downloaded, 1 skipped, 1 failed; 10 B in ") == true, result.stderr)

        let quiet = try Afget.run(["-q", url, server.url("/file/new.bin?size=10")], in: directory)
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "", "nothing failed: nothing said")
    }

    func testErrorExits11AndKeepsTheFile() throws {
        let result = try Afget.run(["-q", "--on-exists", "error", url], in: directory)
        XCTAssertEqual(result.status, 11)
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "old")
        XCTAssertEqual(listing(directory), ["f.bin"])
    }

    func testOverwriteReplacesTheFileKeepingItsMode() throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: existing.path)
        let result = try Afget.run(["-q", "--on-exists", "overwrite", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: existing.path), TestPayload.sha256(count: 5000))
        XCTAssertEqual(listing(directory), ["f.bin"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: existing.path)[.posixPermissions] as? Int, 0o640)
    }

    /// A destination that is a symlink is replaced, not written through: the file it points to
    /// keeps its bytes.
    func testOverwriteReplacesASymlinkNotTheFileItPointsTo() throws {
        try FileManager.default.removeItem(at: existing)
        let target = directory.appendingPathComponent("target.txt")
        try Data("precious".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: existing, withDestinationURL: target)
        let result = try Afget.run(["-q", "--on-exists", "overwrite", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: existing.path)[.type] as? FileAttributeType, .typeRegular)
        XCTAssertEqual(sha256Hex(ofFile: existing.path), TestPayload.sha256(count: 5000))
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "precious")
        XCTAssertEqual(listing(directory), ["f.bin", "target.txt"])
    }

    func testRenamePicksTheFirstFreeNumberedName() throws {
        try Data("older".utf8).write(to: directory.appendingPathComponent("f.1.bin"))
        let result = try Afget.run(["-q", "--on-exists", "rename", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["f.1.bin", "f.2.bin", "f.bin"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("f.2.bin").path), TestPayload.sha256(count: 5000))
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "old")
    }

    func testPartFileLeftByAnEarlierRunIsStartedOver() throws {
        try FileManager.default.removeItem(at: existing)
        try Data(repeating: 0xEE, count: 9000).write(to: directory.appendingPathComponent("f.bin.afpart"))
        let result = try Afget.run(["-q", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["f.bin"])
        XCTAssertEqual(sha256Hex(ofFile: existing.path), TestPayload.sha256(count: 5000))
    }

    func testSymlinkAtThePartPathIsNotFollowed() throws {
        try FileManager.default.removeItem(at: existing)
        let victim = directory.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("f.bin.afpart"), withDestinationURL: victim)

        let result = try Afget.run(["-q", url], in: directory)
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("symbolic link"), result.stderr)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
    }
}

/// `--on-exists update`: a conditional GET from the file's modification time.
final class OnExistsUpdateTests: XCTestCase {
    func testUnchangedFileIsKeptOn304AndAnOlderOneIsReplaced() throws {
        let server = try TestHTTPServer()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = server.url("/file/u.bin?size=6000")
        let file = directory.appendingPathComponent("u.bin")
        XCTAssertEqual(try Afget.run(["-q", url], in: directory).status, 0)

        let unchanged = try Afget.run(["--progress", "line", "--on-exists", "update", url], in: directory)
        XCTAssertEqual(unchanged.status, 0, unchanged.stderr)
        XCTAssertEqual(unchanged.stderrLines, ["afget: skipping u.bin: not modified on the server (see --on-exists)"])
        XCTAssertEqual(server.log.all.last?.header("If-Modified-Since"), Route.lastModified)
        XCTAssertEqual(listing(directory), ["u.bin"])

        try Data("stale".utf8).write(to: file)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: file.path)
        let older = try Afget.run(["-q", "--on-exists", "update", url], in: directory)
        XCTAssertEqual(older.status, 0, older.stderr)
        XCTAssertEqual(sha256Hex(ofFile: file.path), TestPayload.sha256(count: 6000))
        XCTAssertEqual(server.log.all.last?.header("If-Modified-Since"), "Sun, 09 Sep 2001 01:46:40 GMT")
    }
}
