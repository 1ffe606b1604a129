import Foundation
import Glibc
import TestServer
import XCTest

/// `afget -r` over a real nginx with `autoindex on`: a directory tree fetched exactly, the
/// scope options respected, and Ctrl-C then the same command finishing it without fetching a
/// file twice (issue 54).
final class RecursiveDownloadTests: XCTestCase {
    private var nginx: NginxServer!
    private var directory: URL!
    /// The tree under /pub/data/, by path below it: each file's sha256.
    private var tree: [String: String] = [:]
    /// Directories of the tree, below /pub/data/ ("" is itself): each is fetched as a listing.
    private let directories = ["", "a/", "a/b/", "a/b/c/", "docs/", "images/"]

    override func setUpWithError() throws {
        nginx = try NginxServer(autoindex: true)
        directory = try makeScratchDirectory()
        let names = [
            "README.txt", "data.csv", "archive.tar.gz", "release.iso", "a/one.bin", "a/two.bin", "a/notes.md",
            "a/b/three.bin", "a/b/four.json", "a/b/disc.iso", "a/b/c/five.bin", "a/b/c/six.txt", "a/b/c/seven.txt",
            "docs/guide.html", "docs/api.txt", "docs/changes.txt", "images/logo.png", "images/photo.jpg",
            "images/icon.svg", "name with spaces.txt",
        ]
        for name in names {
            let file = nginx.root.appendingPathComponent("pub/data/" + name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let bytes = Data((0..<(20_000 + name.utf8.count * 4_001)).map { _ in UInt8.random(in: 0...255) })
            try bytes.write(to: file)
            tree[name] = sha256Hex(bytes)
        }
        // Above the start directory: `-np` keeps the crawl out of it.
        try Data("not below the start".utf8).write(to: nginx.root.appendingPathComponent("pub/other.txt"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        nginx = nil
    }

    /// Where wget's layout puts the tree: `-d DIR/host:port/path`.
    private var hostDirectory: URL { directory.appendingPathComponent("out/127.0.0.1:\(nginx.port)") }

    /// Every regular file under `out/`, by path below the host's directory.
    private func filesOnDisk() -> Set<String> {
        let root = hostDirectory.path + "/"
        let enumerator = FileManager.default.enumerator(atPath: hostDirectory.path)
        var files = Set<String>()
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.insert(path)
            }
        }
        return files
    }

    /// The files a crawl of `/pub/data/` keeps: each of the tree's (`keeping`) and each
    /// directory's listing as `index.html`, as wget saves them.
    private func expectedFiles(keeping names: [String], listings: [String]) -> Set<String> {
        Set(names.map { "pub/data/" + $0 } + listings.map { "pub/data/" + $0 + "index.html" })
    }

    private func assertTreeFilesExact(_ names: [String], file: StaticString = #filePath, line: UInt = #line) {
        for name in names {
            XCTAssertEqual(
                sha256Hex(ofFile: hostDirectory.appendingPathComponent("pub/data/" + name).path), tree[name],
                name, file: file, line: line)
        }
    }

    func testAListingsWholeTreeIsFetchedExactlyOnceEach() throws {
        let result = try Afget.run(["-r", "-np", "-d", "out", nginx.url("/pub/data/")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(filesOnDisk(), expectedFiles(keeping: Array(tree.keys), listings: directories))
        assertTreeFilesExact(Array(tree.keys))
        // robots.txt is asked for first; nginx has none: everything is allowed, and no failure.
        XCTAssertTrue(result.stderr.contains("robots.txt: not on the server (HTTP 404)"), result.stderr)
        XCTAssertFalse(result.stderr.contains("failed:"), result.stderr)
        XCTAssertTrue(result.stderr.contains(", 0 failed;"), result.stderr)
        // The six listings and docs/guide.html, a page too.
        XCTAssertTrue(result.stderr.contains("7 pages read"), result.stderr)
        let requests = nginx.loggedRequests()
        let fileRequests = requests.filter { !$0.uri.hasSuffix("/") && $0.uri != "/robots.txt" }.map(\.uri)
        XCTAssertEqual(fileRequests.count, tree.count, "each file fetched once: \(fileRequests)")
        XCTAssertEqual(Set(fileRequests).count, tree.count, "\(fileRequests)")
        XCTAssertFalse(requests.contains { $0.uri.hasPrefix("/pub/other") || $0.uri == "/pub/" }, "-np: \(requests)")
        XCTAssertFalse(requests.contains { $0.uri.contains("?C=") }, "a listing's sort links are not followed")

        // The same command again: every file is there, nothing is fetched again.
        let before = nginx.loggedRequests().count
        let again = try Afget.run(["-q", "-r", "-np", "-d", "out", nginx.url("/pub/data/")], in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(nginx.loggedRequests().dropFirst(before).map(\.uri), ["/robots.txt"])
        assertTreeFilesExact(Array(tree.keys))
    }

    func testLevelOneFetchesTheStartListingsLinksOnly() throws {
        let result = try Afget.run(
            ["-q", "-r", "-np", "-l", "1", "-d", "out", nginx.url("/pub/data/")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        let topFiles = tree.keys.filter { !$0.contains("/") }
        // The subdirectories' listings are one link away: fetched, their links are not followed.
        XCTAssertEqual(filesOnDisk(), expectedFiles(keeping: topFiles, listings: ["", "a/", "docs/", "images/"]))
        assertTreeFilesExact(topFiles)
    }

    func testRejectedNamesAreNotFetched() throws {
        let result = try Afget.run(
            ["-r", "-np", "-R", "*.iso", "--report", "report.json", "-d", "out", nginx.url("/pub/data/")],
            in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        let kept = tree.keys.filter { !$0.hasSuffix(".iso") }
        XCTAssertEqual(filesOnDisk(), expectedFiles(keeping: kept, listings: directories))
        assertTreeFilesExact(kept)
        XCTAssertFalse(nginx.loggedRequests().contains { $0.uri.hasSuffix(".iso") })
        // The two .iso files, and the start listing's link to its parent directory.
        XCTAssertTrue(result.stderr.contains("3 links skipped by rule"), result.stderr)
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        XCTAssertTrue(report.contains("\"pages\":7"), report)
        XCTAssertTrue(report.contains("\"skipped_by_rule\":{\"accept-reject\":2,\"listing-navigation\":1}"), report)
    }

    /// A real SIGINT to a real afget in the middle of the crawl, then the same command: the
    /// tree is exact, and no file that was in place is asked for again.
    func testCtrlCThenTheSameCommandFinishesTheTreeWithoutFetchingAFileTwice() throws {
        // Through nginx's 256 KB/s location, two at a time: the tree's 1.3 MB take seconds.
        let arguments = ["--progress", "line", "-j", "2", "-r", "-np", "-d", "out", nginx.url("/slower/pub/data/")]
        let slowDirectory = directory.appendingPathComponent("out/127.0.0.1:\(nginx.port)/slower/pub/data")
        func filesInPlace() -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: slowDirectory.path)
            var names: [String] = []
            while let path = enumerator?.nextObject() as? String {
                if tree[path] != nil && sha256Hex(ofFile: slowDirectory.appendingPathComponent(path).path) == tree[path] {
                    names.append(path)
                }
            }
            return names
        }
        let (process, _, stderr) = try Afget.start(arguments, in: directory)
        waitUntil("a few files in place") { filesInPlace().count >= 4 }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stopped = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 130, stopped)
        let inPlace = Set(filesInPlace())
        XCTAssertLessThan(inPlace.count, tree.count, "stopped before the end")

        // nginx numbers its connections: those of the second run come after this one's.
        let marker = try Afget.run(["-q", "-o", "/dev/null", nginx.url("/marker")], in: directory)
        XCTAssertEqual(marker.status, 8)
        var markerConnection = 0
        waitUntil("the marker logged") {
            markerConnection = nginx.loggedRequests().first { $0.uri == "/marker" }?.connection ?? 0
            return markerConnection > 0
        }
        let again = try Afget.run(arguments, in: directory)

        XCTAssertEqual(again.status, 0, again.stderr)
        let secondRun = nginx.loggedRequests().filter { $0.connection > markerConnection }.map(\.uri)
        for name in inPlace {
            let uri = "/slower/pub/data/" + name.replacingOccurrences(of: " ", with: "%20")
            XCTAssertFalse(secondRun.contains(uri), "\(name) was in place, and asked for again")
        }
        XCTAssertEqual(Set(secondRun).count, secondRun.count, "nothing asked for twice: \(secondRun)")
        XCTAssertEqual(Set(filesInPlace()), Set(tree.keys))
        let remaining = ((try? FileManager.default.subpathsOfDirectory(atPath: slowDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".afpart") || $0.hasSuffix(".afresume") }
        XCTAssertEqual(remaining, [], "no part file or resume data left")
    }

    /// A listed file that redirects above the start directory is judged as a link there would
    /// be (`-np`): skipped, not fetched; one that redirects within the scope is followed.
    func testARedirectOutOfScopeIsSkippedNotFetched() throws {
        let server = try NginxServer(
            autoindex: true,
            locations: """
                location = /pub/data/moved.txt { return 302 /pub/other.txt; }
                location = /pub/data/renamed.txt { return 302 /pub/data/a/one.bin; }
                """)
        for name in ["pub/data/moved.txt", "pub/data/renamed.txt", "pub/data/a/one.bin", "pub/other.txt"] {
            let file = server.root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(name.utf8).write(to: file)
        }
        let result = try Afget.run(["-r", "-np", "-d", "out", server.url("/pub/data/")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("moved.txt: redirected to \(server.url("/pub/other.txt")), out of the crawl's scope"),
            result.stderr)
        XCTAssertFalse(server.loggedRequests().contains { $0.uri == "/pub/other.txt" }, "\(server.loggedRequests())")
        let saved = directory.appendingPathComponent("out/127.0.0.1:\(server.port)/pub/data")
        XCTAssertFalse(FileManager.default.fileExists(atPath: saved.appendingPathComponent("moved.txt").path))
        XCTAssertEqual(
            try String(contentsOf: saved.appendingPathComponent("renamed.txt"), encoding: .utf8), "pub/data/a/one.bin")
        XCTAssertEqual(try String(contentsOf: saved.appendingPathComponent("a/one.bin"), encoding: .utf8), "pub/data/a/one.bin")
    }

    /// A robots.txt's Crawl-delay paces the host's items: each starts that long after the one
    /// before, whatever -j allows.
    func testCrawlDelayPacesTheHostsItems() throws {
        let server = try NginxServer(autoindex: true)
        try Data("User-agent: *\nCrawl-delay: 0.4\n".utf8).write(to: server.root.appendingPathComponent("robots.txt"))
        let names = ["f1.txt", "f2.txt", "f3.txt", "f4.txt"]
        try FileManager.default.createDirectory(
            at: server.root.appendingPathComponent("paced"), withIntermediateDirectories: true)
        for name in names { try Data(name.utf8).write(to: server.root.appendingPathComponent("paced/" + name)) }
        let result = try Afget.run(["-q", "-j", "4", "-r", "-np", "-d", "out", server.url("/paced/")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        let saved = directory.appendingPathComponent("out/127.0.0.1:\(server.port)")
        XCTAssertEqual(
            try String(contentsOf: saved.appendingPathComponent("robots.txt"), encoding: .utf8),
            "User-agent: *\nCrawl-delay: 0.4\n")
        let times = server.loggedRequests().filter { $0.uri.hasSuffix(".txt") && $0.uri != "/robots.txt" }.map(\.time)
        XCTAssertEqual(times.count, names.count)
        for (earlier, later) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, 0.35, "\(times)")
        }
    }
}
