import Foundation
import TestServer
import XCTest

/// `afget -r -np -nH --cut-dirs 2` over nginx's `autoindex on` listings of a tree of 2 000
/// files in three levels (issue 54): with `-A` and with `-R`, exactly the files the rule keeps,
/// where the layout puts them, each byte exact and each asked for once (nginx's log); and the
/// same command again asks for no file.
final class CrawlTreeTests: XCTestCase {
    private var nginx: NginxServer!
    private var directory: URL!
    /// The tree under /pub/data/, by path below it: each file's sha256.
    private var tree: [String: String] = [:]
    /// The tree's directories below /pub/data/ ("" is itself), each a listing the crawl reads.
    private var directories: [String] = [""]
    private static let extensions = ["txt", "bin", "csv", "json"]

    override func setUpWithError() throws {
        nginx = try NginxServer(autoindex: true)
        directory = try makeScratchDirectory()
        // 10 directories of 10 directories of 20 files: 2 000 files, 111 listings.
        for top in 0..<10 {
            directories.append("d\(top)/")
            for middle in 0..<10 {
                let folder = "d\(top)/s\(middle)/"
                directories.append(folder)
                try FileManager.default.createDirectory(
                    at: nginx.root.appendingPathComponent("pub/data/" + folder), withIntermediateDirectories: true)
                for number in 0..<20 {
                    let name = folder + "f\(number).\(Self.extensions[number % Self.extensions.count])"
                    let bytes = Data((0..<(64 + top * 100 + middle * 10 + number)).map { _ in UInt8.random(in: 0...255) })
                    try bytes.write(to: nginx.root.appendingPathComponent("pub/data/" + name))
                    tree[name] = sha256Hex(bytes)
                }
            }
        }
        // Above the start directory: `-np` keeps the crawl out of it.
        try Data("not below the start".utf8).write(to: nginx.root.appendingPathComponent("pub/other.txt"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        nginx = nil
    }

    private var out: URL { directory.appendingPathComponent("out") }

    /// Every regular file under `out/`, by path below it.
    private func filesOnDisk() -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: out.path)
        var files = Set<String>()
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: out.path + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.insert(path)
            }
        }
        return files
    }

    /// How many times nginx was asked for each URI, from its `skipped`-th request on.
    private func requestsByPath(after skipped: Int = 0) -> [String: Int] {
        nginx.loggedRequests().dropFirst(skipped).reduce(into: [:]) { counts, request in
            counts[request.uri, default: 0] += 1
        }
    }

    /// The two sets equal, a failure naming only what differs (the sets are thousands long).
    private func assertSame<T: Hashable & Comparable>(
        _ got: Set<T>, _ expected: Set<T>, file: StaticString = #filePath, line: UInt = #line
    ) {
        let extra = got.subtracting(expected).sorted()
        let missing = expected.subtracting(got).sorted()
        XCTAssertEqual(extra.count, 0, "not expected, among them: \(extra.prefix(10))", file: file, line: line)
        XCTAssertEqual(missing.count, 0, "missing, among them: \(missing.prefix(10))", file: file, line: line)
    }

    /// Each URI asked for exactly once, and those alone.
    private func assertEachAskedOnce(
        _ counts: [String: Int], _ expected: Set<String>, file: StaticString = #filePath, line: UInt = #line
    ) {
        assertSame(Set(counts.keys), expected, file: file, line: line)
        XCTAssertEqual(counts.filter { $0.value != 1 }, [:], "asked for more than once", file: file, line: line)
    }

    private func assertExact(_ names: [String], file: StaticString = #filePath, line: UInt = #line) {
        // `--cut-dirs 2` drops pub/data/: the tree's paths are the paths under out/.
        let wrong = names.filter { sha256Hex(ofFile: out.appendingPathComponent($0).path) != tree[$0] }
        XCTAssertEqual(wrong.count, 0, "not byte-exact, among them: \(wrong.prefix(10))", file: file, line: line)
    }

    private func command(_ rule: [String]) -> [String] {
        ["-q", "-r", "-np", "-nH", "--cut-dirs", "2", "-j", "8", "--report", "report.json"] + rule
            + ["-d", "out", nginx.url("/pub/data/")]
    }

    /// `--accept '*.txt'` (wget's `-A`; afget's `-A` is curl's, the user agent): a quarter of the files, and no listing (a page refused by the rule is read
    /// for its links, then removed), each file and listing asked for once.
    func testAcceptKeepsExactlyTheMatchingFilesEachFetchedOnce() throws {
        let result = try Afget.run(command(["--accept", "*.txt"]), in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        let kept = tree.keys.filter { $0.hasSuffix(".txt") }
        XCTAssertEqual(kept.count, 500)
        assertSame(filesOnDisk(), Set(kept))
        assertExact(kept)
        let listings = directories.map { "/pub/data/" + $0 }
        assertEachAskedOnce(requestsByPath(), Set(kept.map { "/pub/data/" + $0 } + listings + ["/robots.txt"]))
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        XCTAssertTrue(report.contains("\"pages\":111"), report)
        // The 1 500 other files, and the start listing's link to its parent directory.
        XCTAssertTrue(
            report.contains("\"skipped_by_rule\":{\"accept-reject\":1500,\"listing-navigation\":1}"), report)

        // The same command again: the listings were removed, so they are read again, and no
        // file is asked for (each is in place).
        let before = nginx.loggedRequests().count
        let again = try Afget.run(command(["--accept", "*.txt"]), in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        assertEachAskedOnce(requestsByPath(after: before), Set(listings + ["/robots.txt"]))
        assertSame(filesOnDisk(), Set(kept))
        assertExact(kept)
    }

    /// `-R '*.bin'`: three quarters of the files and every listing as its `index.html`, each
    /// asked for once; the same command again asks for robots.txt alone.
    func testRejectKeepsEverythingElseAndTheListingsEachFetchedOnce() throws {
        let result = try Afget.run(command(["-R", "*.bin"]), in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        let kept = tree.keys.filter { !$0.hasSuffix(".bin") }
        XCTAssertEqual(kept.count, 1500)
        assertSame(filesOnDisk(), Set(kept + directories.map { $0 + "index.html" }))
        assertExact(kept)
        assertEachAskedOnce(requestsByPath(), Set((kept + directories).map { "/pub/data/" + $0 } + ["/robots.txt"]))
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        XCTAssertTrue(report.contains("\"pages\":111"), report)
        XCTAssertTrue(
            report.contains("\"skipped_by_rule\":{\"accept-reject\":500,\"listing-navigation\":1}"), report)

        let before = nginx.loggedRequests().count
        let again = try Afget.run(command(["-R", "*.bin"]), in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(requestsByPath(after: before), ["/robots.txt": 1])
        assertExact(kept)
    }
}
