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
        XCTAssertEqual(result.stderrLines, [Self.skippedWithAdvice("f.bin")])
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

    static func skippedWithAdvice(_ name: String) -> String {
        "afget: skipping \(name): already exists (if it is incomplete: -c continues it, --on-exists overwrite replaces it)"
    }

    /// A file another tool left short is skipped, as any file there is, but the line says the
    /// two ways on, and each does what it says: `-c` continues it to the server's bytes,
    /// `--on-exists overwrite` replaces it.
    func testASkippedFileSaysHowToContinueOrReplaceIt() throws {
        let size = 5000
        let short = directory.appendingPathComponent("short.bin")
        let url = server.url("/file/short.bin?size=\(size)")
        for way in [["-c"], ["--on-exists", "overwrite"]] {
            try Data(TestPayload.bytes(0..<2000)).write(to: short)
            let skipped = try Afget.run(["--progress", "line", url], in: directory)
            XCTAssertEqual(skipped.status, 0, skipped.stderr)
            XCTAssertEqual(skipped.stderrLines, [Self.skippedWithAdvice("short.bin")])
            XCTAssertEqual(fileSize(short), 2000, "skipped: left as it is")

            let followed = try Afget.run(["-q"] + way + [url], in: directory)
            XCTAssertEqual(followed.status, 0, "\(way): \(followed.stderr)")
            XCTAssertEqual(sha256Hex(ofFile: short.path), TestPayload.sha256(count: size), "\(way)")
        }
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

        let before = server.log.all.count
        let unchanged = try Afget.run(["--progress", "line", "--on-exists", "update", url], in: directory)
        XCTAssertEqual(unchanged.status, 0, unchanged.stderr)
        XCTAssertEqual(unchanged.stderrLines, ["afget: skipping u.bin: not modified on the server (see --on-exists)"])
        let asked = server.log.all.dropFirst(before)
        XCTAssertEqual(asked.map(\.method), ["GET", "HEAD"], "a 304, then its length asked for")
        XCTAssertEqual(asked.first?.header("If-Modified-Since"), Route.lastModified)
        XCTAssertEqual(listing(directory), ["u.bin"])

        try Data("stale".utf8).write(to: file)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: file.path)
        let older = try Afget.run(["-q", "--on-exists", "update", url], in: directory)
        XCTAssertEqual(older.status, 0, older.stderr)
        XCTAssertEqual(sha256Hex(ofFile: file.path), TestPayload.sha256(count: 6000))
        XCTAssertEqual(server.log.all.last?.header("If-Modified-Since"), "Sun, 09 Sep 2001 01:46:40 GMT")
    }

    /// A file of another length than the server's is fetched again even when the server's copy
    /// is no newer: one another tool left short has the time it was written (newer), or kept
    /// the server's time (`cp -p`, `curl -R`), and If-Modified-Since alone kept it.
    func testAFileOfAnotherSizeIsFetchedAgainWhateverItsTime() throws {
        let server = try TestHTTPServer()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = server.url("/file/u.bin?size=6000")
        let file = directory.appendingPathComponent("u.bin")
        let times = [Date(timeIntervalSince1970: TimeInterval(Route.lastModifiedEpoch)), Date()]
        for time in times {
            try Data(TestPayload.bytes(0..<2500)).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: file.path)
            let result = try Afget.run(["--progress", "line", "--on-exists", "update", url], in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(
                result.stderrLines.first,
                "afget: u.bin: not modified on the server, but 6000 bytes there and 2500 here: fetching it again")
            XCTAssertEqual(sha256Hex(ofFile: file.path), TestPayload.sha256(count: 6000), "\(time)")
            XCTAssertEqual(listing(directory), ["u.bin"])
            XCTAssertNil(server.log.all.last?.header("If-Modified-Since"), "the file is asked for whole")
        }
    }
}
