import Foundation
import TestServer
import XCTest

/// Where `-o`, `-d` and the URLs' own names put files: `-o` naming a directory, `-o` inside
/// `-d` (curl's --output-dir), and two URLs of one name in a run (`--on-conflict`).
final class OutputPathsTests: ServerTestCase {
    private func sha(_ path: String) -> String? {
        sha256Hex(ofFile: directory.appendingPathComponent(path).path)
    }

    /// `-o adir` where adir is a directory says to use `-d adir` in one line, before any
    /// request (it used to fail as a local file error, exit 3, after the URL was parsed).
    func testAnOutputThatIsADirectorySaysToUseDir() throws {
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("base/my dir"), withIntermediateDirectories: true)
        let url = server.url("/file/x.bin?size=10")
        for (arguments, message) in [
            (["-o", "base"], "-o/--output \"base\" is a directory; use -d base to download into it"),
            (
                ["-d", "base", "-o", "my dir"],
                "-o/--output \"base/my dir\" is a directory; use -d 'base/my dir' to download into it"
            ),
        ] {
            let result = try Afget.run(arguments + [url], in: directory)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderrLines, ["afget: \(message) (see afget --help)"])
        }
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(listing(directory.appendingPathComponent("base")), ["my dir"])
    }

    /// `-o NAME -d DIR` saves DIR/NAME, as curl's `--output-dir DIR -o NAME`; an absolute `-o`
    /// or `-o -` beside `-d` is refused in one line.
    func testAnOutputNameGoesInsideDir() throws {
        let result = try Afget.run(["-q", "-d", "out", "-o", "sub/name.bin", server.url("/file/x.bin?size=3000")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(sha("out/sub/name.bin"), TestPayload.sha256(count: 3000))
        XCTAssertEqual(listing(directory.appendingPathComponent("out")), ["sub"])
        XCTAssertEqual(listing(directory.appendingPathComponent("out/sub")), ["name.bin"])

        let again = try Afget.run(
            ["--progress", "line", "-P", "out", "-o", "sub/name.bin", server.url("/file/x.bin?size=3000")], in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("out/sub/name.bin"), again.stderr)

        for (arguments, message) in [
            (
                ["-d", "out", "-o", "/tmp/x.bin"],
                "-o/--output \"/tmp/x.bin\" is absolute, so -d/--dir \"out\" cannot hold it: give one"
            ),
            (["-d", "out", "-o", "-"], "-o - writes to standard output, where -d/--dir has no file to hold: give one"),
        ] {
            let refused = try Afget.run(arguments + [server.url("/file/x.bin?size=10")], in: directory)
            XCTAssertEqual(refused.status, 2, "\(arguments): \(refused.stderr)")
            XCTAssertEqual(refused.stderrLines, ["afget: \(message) (see afget --help)"])
        }
        XCTAssertEqual(server.log.all.count, 1, "the first run alone: the second skips, the refusals ask nothing")
    }

    /// Three URLs of one name on the command line: refused by default naming the flag;
    /// with `--on-conflict rename` the later ones are x.1.bin and x.2.bin, each said once, and
    /// the same command again finds the same names (every file skipped, nothing fetched).
    func testURLsOfOneNameAreNumberedWithOnConflictRename() throws {
        let urls = (1...3).map { server.url("/file/m\($0)/x.bin?size=\($0 * 1000)") }
        let refused = try Afget.run(["-q"] + urls, in: directory)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertEqual(
            refused.stderrLines,
            [
                "afget: x.bin: \(urls[0]) and \(urls[1]) would both write this file; give one of them out= or -o, "
                    + "or add --on-conflict rename to number the later one"
            ])
        XCTAssertEqual(server.log.all.count, 0)

        let renamed = try Afget.run(["--progress", "none", "--on-conflict", "rename"] + urls, in: directory)
        XCTAssertEqual(renamed.status, 0, renamed.stderr)
        XCTAssertEqual(listing(directory), ["x.1.bin", "x.2.bin", "x.bin"])
        for (index, name) in ["x.bin", "x.1.bin", "x.2.bin"].enumerated() {
            XCTAssertEqual(sha(name), TestPayload.sha256(count: (index + 1) * 1000), name)
        }
        let rerun = try Afget.run(["--on-conflict", "rename"] + urls, in: directory)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(
            rerun.stderrLines.filter { $0.contains("saving as") },
            [
                "afget: \(urls[1]): saving as x.1.bin, as \(urls[0]) writes x.bin",
                "afget: \(urls[2]): saving as x.2.bin, as \(urls[0]) writes x.bin",
            ])
        XCTAssertTrue(rerun.stderr.contains("0 downloaded, 3 skipped, 0 failed"), rerun.stderr)
        XCTAssertEqual(server.log.all.count, 3, "the re-run fetched nothing")
    }

    /// In a list file (its first pass) and from standard input (as lines arrive): a new name
    /// passes over a name another line gives with out=, and the same URL twice is still one item.
    func testAListsItemsOfOneNameAreNumberedWithOnConflictRename() throws {
        let url = { (place: String, size: Int) in self.server.url("/file/\(place)/x.bin?size=\(size)") }
        let list = [url("a", 1000), url("b", 2000), url("c", 3000), "  out=x.1.bin", url("b", 2000)].joined(separator: "\n")
        try list.write(to: directory.appendingPathComponent("urls.txt"), atomically: true, encoding: .utf8)
        for (source, input) in [("urls.txt", nil), ("-", Data(list.utf8))] {
            let place = source == "-" ? "piped" : "file"
            let result = try Afget.run(
                ["--progress", "line", "--on-conflict", "rename", "-d", place, "-i", source], in: directory, input: input)
            XCTAssertEqual(result.status, 0, "\(source): \(result.stderr)")
            let files = directory.appendingPathComponent(place)
            let sizes = Dictionary(
                uniqueKeysWithValues: listing(files).map {
                    ($0, (try? Data(contentsOf: files.appendingPathComponent($0)))?.count)
                })
            if source == "-" {
                // Read as it arrives: line 2 takes x.1.bin before line 3's out= asks for it,
                // which is then numbered in its turn.
                XCTAssertEqual(sizes, ["x.bin": 1000, "x.1.bin": 2000, "x.1.1.bin": 3000], "\(source): \(result.stderr)")
            } else {
                XCTAssertEqual(sizes, ["x.bin": 1000, "x.2.bin": 2000, "x.1.bin": 3000], "\(source): \(result.stderr)")
            }
            XCTAssertTrue(result.stderr.contains("same URL and destination as"), "\(source): \(result.stderr)")
        }
        XCTAssertEqual(server.log.all.count, 6, "each URL once a run")
    }
}
