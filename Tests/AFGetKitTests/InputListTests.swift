@testable import AFGetKit
import XCTest

/// The aria2c-style input list, read from its bytes.
final class InputListTests: XCTestCase {
    private func parse(_ bytes: [UInt8]) -> InputList {
        InputList(parsing: bytes, name: "list")
    }

    func testLinesEndInLFOrCRLF() {
        let list = parse(Array("http://h/a.bin\r\n  out=b.bin\r\n\r\n# note\r\nhttp://h/c.bin\nhttp://h/d.bin".utf8))
        XCTAssertEqual(list.problems, [])
        XCTAssertEqual(list.entries.map(\.url), ["http://h/a.bin", "http://h/c.bin", "http://h/d.bin"])
        XCTAssertEqual(list.entries.map(\.out), ["b.bin", nil, nil])
        XCTAssertEqual(list.entries.map(\.source), ["list:1", "list:5", "list:6"])
    }

    /// Notepad starts a UTF-8 file with a byte order mark; only one at the very start is skipped.
    func testAByteOrderMarkAtTheStartIsSkipped() {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let list = parse(mark + Array("http://h/a.bin\r\n  out=b.bin\r\n".utf8) + mark + Array("http://h/c.bin\r\n".utf8))
        XCTAssertEqual(list.entries.map(\.url), ["http://h/a.bin"])
        XCTAssertEqual(list.entries.first?.out, "b.bin")
        XCTAssertEqual(list.problems.map(\.item), ["list:3"])
    }

    /// out= names a file below the item's directory, nothing else.
    func testOutNamesARelativeFile() {
        let bad = ["/abs.bin", "../up.bin", "a/../b.bin", "a//b.bin", "sub/", ".", "sub/.", ""]
        let good = ["./a.bin", "a/b.bin", "..a.bin"]
        let list = parse(Array((bad + good).map { "http://h/x\n  out=\($0)\n" }.joined().utf8))
        XCTAssertEqual(list.problems.map(\.item), bad.indices.map { "list:\(2 * $0 + 2)" })
        XCTAssertEqual(list.entries.compactMap(\.out), good)
    }

    /// An option written beside its URL is refused with the way to write it (not fetched as one
    /// URL with %20 in it); its option lines go with it. A space inside a URL alone is still a
    /// URL (sent as %20).
    func testAURLLineHoldsURLsAndNothingElse() {
        let list = parse(
            Array("http://h/a.bin out=b.bin\n  header=X: 1\nhttp://h/c.bin\thttp://h/d.bin out=x\nhttp://h/my file.bin\n".utf8))
        XCTAssertEqual(list.entries.map(\.url), ["http://h/my file.bin"])
        XCTAssertEqual(
            list.problems.map(\.description),
            [
                "list:1: out=b.bin goes on its own line below the URL, indented",
                "list:3: out=x goes on its own line below the URL, indented",
            ])
    }

    /// aria2c's mirrors: a line's tab-separated URLs are one file from several sources, the
    /// first naming it; blanks around each are not part of it, a URL given twice counts once,
    /// and a source that is not a URL takes the line with it.
    func testTabSeparatedURLsAreOneFileFromSeveralSources() {
        let rows: [(line: String, url: String?, mirrors: [String], problem: String?)] = [
            ("http://a/f.iso\thttp://b/f.iso", "http://a/f.iso", ["http://b/f.iso"], nil),
            (
                "http://a/f.iso \t http://b/f.iso\t\thttps://c/x/f.iso", "http://a/f.iso",
                ["http://b/f.iso", "https://c/x/f.iso"], nil
            ),
            ("http://a/f.iso\thttp://a/f.iso\tftp://c/f.iso", "http://a/f.iso", ["ftp://c/f.iso"], nil),
            ("http://a/f.iso\t", "http://a/f.iso", [], nil),
            ("http://a/my file.iso\thttp://b/my file.iso", "http://a/my file.iso", ["http://b/my file.iso"], nil),
            ("http://a/f.iso\tf.iso", nil, [], "not a URL"),
            ("http://a/f.iso\tmailto:x@y", nil, [], "not a URL"),
        ]
        for row in rows {
            let list = parse(Array("\(row.line)\n  out=o.iso\n".utf8))
            XCTAssertEqual(list.entries.first?.url, row.url, row.line)
            XCTAssertEqual(list.entries.first?.mirrors ?? [], row.mirrors, row.line)
            XCTAssertEqual(list.entries.first?.out, row.url == nil ? nil : "o.iso", row.line)
            if let problem = row.problem {
                XCTAssertEqual(list.problems.map(\.item), ["list:1"], row.line)
                XCTAssertTrue(list.problems.first?.description.contains(problem) == true, "\(list.problems)")
            } else {
                XCTAssertEqual(list.problems, [], row.line)
            }
        }
    }

    /// A line naming a Metalink document (its name, a URL's path without its query, ends in
    /// .meta4 or .metalink in any case) stands for the document's files; it takes dir= and
    /// refuses the options of one file, its item dropped with its other option lines. Every
    /// other line is read as before: a path that names no document is still not a URL.
    func testALineNamingAMetalinkDocumentStandsForItsFiles() {
        let notAURL = "list:1: not a URL: it must start with http://, https://, ftp://, ftps://, sftp:// or scp://"
        let rows: [(text: String, document: String?, dir: String?, urls: [String], problems: [String])] = [
            ("release.meta4", "release.meta4", nil, [], []),
            ("sub/Release.META4\n  dir=isos", "sub/Release.META4", "isos", [], []),
            ("my files.metalink", "my files.metalink", nil, [], []),
            ("https://h/x/files.metalink", "https://h/x/files.metalink", nil, [], []),
            ("https://h/files.MetaLink?token=1#top", "https://h/files.MetaLink?token=1#top", nil, [], []),
            ("https://h/get?name=files.meta4", nil, nil, ["https://h/get?name=files.meta4"], []),
            ("https://h.meta4", nil, nil, ["https://h.meta4"], []),
            ("https://h/files.meta4.sig", nil, nil, ["https://h/files.meta4.sig"], []),
            ("release.txt", nil, nil, [], [notAURL]),
            // ASCII lines are read as bytes, others by Characters: the same answers.
            ("meta4", nil, nil, [], [notAURL]),
            ("Données.Meta4", "Données.Meta4", nil, [], []),
            ("https://h/é/files.METALINK?é#top", "https://h/é/files.METALINK?é#top", nil, [], []),
            ("https://h/é?name=files.meta4", nil, nil, ["https://h/é?name=files.meta4"], []),
            ("résumé.txt", nil, nil, [], [notAURL]),
            ("gopher://h/x.meta4", nil, nil, [], ["list:1: gopher: URLs are not supported"]),
            (
                "a.meta4\thttps://h/b.meta4", nil, nil, [],
                ["list:1: a Metalink document is named alone on its line (its files' other sources are in it)"]
            ),
            (
                "release.meta4\n  out=x.iso\n  dir=y\nhttps://h/a", nil, nil, ["https://h/a"],
                [
                    "list:2: out= names one file; a Metalink document names each of its files (dir= sets where); "
                        + "not using release.meta4"
                ]
            ),
            (
                "https://u:secret@h/x.meta4\n  checksum=sha-256=\(String(repeating: "0", count: 64))", nil, nil, [],
                [
                    "list:2: checksum= checks one file; a Metalink document gives each of its files' hashes; "
                        + "not using https://u@h/x.meta4"
                ]
            ),
            (
                "x.meta4\n  header=X: 1", nil, nil, [],
                ["list:2: header= is not used on a Metalink document's line; -H sets headers for the run; not using x.meta4"]
            ),
            ("x.meta4\n  dir=", nil, nil, [], ["list:2: dir= is empty; not using x.meta4"]),
        ]
        for row in rows {
            let list = parse(Array("\(row.text)\n".utf8))
            XCTAssertEqual(list.documents.map(\.location), row.document.map { [$0] } ?? [], row.text)
            XCTAssertEqual(list.documents.first?.dir, row.dir, row.text)
            XCTAssertEqual(list.documents.first?.source, row.document == nil ? nil : "list:1", row.text)
            XCTAssertEqual(list.entries.map(\.url), row.urls, row.text)
            XCTAssertEqual(list.problems.count, row.problems.count, "\(row.text): \(list.problems)")
            for (problem, expected) in zip(list.problems, row.problems) {
                XCTAssertTrue(problem.description.hasPrefix(expected), "\(row.text): \(problem)")
            }
        }
    }

    /// A line that is not UTF-8 is reported by number; a bad URL line takes its options with it,
    /// a bad option line takes its URL (its file would land under another name).
    func testLinesThatAreNotUTF8AreReported() {
        let bytes =
            Array("http://h/".utf8) + [0xFF] + Array("\n  out=x\nhttp://h/no.bin\n  out=".utf8) + [0xC3]
            + Array("\nhttp://h/ok.bin\n".utf8)
        let list = parse(bytes)
        XCTAssertEqual(list.entries.map(\.url), ["http://h/ok.bin"])
        XCTAssertEqual(list.problems.map(\.item), ["list:1", "list:4"])
        XCTAssertTrue(list.problems.allSatisfy { "\($0)".contains("not valid UTF-8") }, "\(list.problems)")
        XCTAssertEqual("\(list.problems[1])", "list:4: the line is not valid UTF-8; not downloading http://h/no.bin")
    }

    /// A byte a URL cannot hold refuses its line by number, its options with it; a NUL too,
    /// which libcurl (reading C strings) took for the URL's end: "http://h/a\0.x" was http://h/a.
    func testALineWithAByteAURLCannotHoldIsRefused() {
        let rows: [(byte: UInt8, said: String)] = [
            (0x00, "Malformed input to a URL function"), (0x01, "Bad path"), (0x1B, "Bad path"), (0x7F, "Bad path"),
        ]
        for (byte, said) in rows {
            let list = parse(Array("http://h/a".utf8) + [byte] + Array(".x\n  out=o.bin\nhttp://h/b.bin\n".utf8))
            XCTAssertEqual(list.entries.map(\.url), ["http://h/b.bin"], "\(byte)")
            XCTAssertEqual(list.problems.map(\.description), ["list:1: malformed URL: \(said)"], "\(byte)")
        }
    }

    /// Without its checksum= an item would arrive unverified, so a bad option line drops its item,
    /// and the item's other option lines go unreported with it.
    func testABadOptionLineTakesItsItemWithIt() {
        let list = parse(
            Array(
                """
                http://h/a.bin
                  checksum=sha-256=00
                  color=blue
                http://h/b.bin
                  out=b2.bin
                """.utf8))
        XCTAssertEqual(list.entries.map(\.url), ["http://h/b.bin"])
        XCTAssertEqual(
            list.problems.map(\.description),
            ["list:2: sha-256 checksum must be 64 hex digits; not downloading http://h/a.bin"])
    }

    /// The item a bad option line takes with it is named without its password, in the message
    /// and in the report.
    func testTheItemDroppedWithABadOptionLineIsNamedWithoutItsPassword() {
        let list = parse(Array("http://user:secret@h/a.bin\n  color=blue\n".utf8))
        XCTAssertEqual(
            list.problems.map(\.description),
            ["list:2: unknown option \"color\" (out, dir, checksum, header); not downloading http://user@h/a.bin"])
        XCTAssertEqual(list.problems.map(\.url), ["http://user@h/a.bin"])
    }
}

/// Destinations compared before any transfer.
final class BatchPlanTests: XCTestCase {
    private func item(_ url: String, _ output: OutputTarget) -> DownloadItem {
        DownloadItem(index: 0, url: url, output: output)
    }

    func testSpellingsOfOnePathAreOneDestination() {
        let merged = BatchPlan.check([item("http://h/a", .path("./out//f.bin")), item("http://h/a", .path("out/f.bin"))])
        XCTAssertNil(merged.conflict)
        XCTAssertEqual(merged.items.count, 1)
        XCTAssertEqual(merged.notices.count, 1)

        for (first, second) in [("./out//f.bin", "out/f.bin"), ("/d/./x", "/d/x/"), ("a/b", "a/./b/.")] {
            let plan = BatchPlan.check([item("http://h/1", .path(first)), item("http://h/2", .path(second))])
            XCTAssertNotNil(plan.conflict, "\(first) and \(second)")
        }
        let apart = BatchPlan.check([
            item("http://h/1", .path("a/b")), item("http://h/2", .path("a/b.bin")),
            item("http://h/3", .directory("a")), item("http://h/4", .path("a/..b")),
        ])
        XCTAssertNil(apart.conflict)
    }
}
