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

    /// An option written beside its URL, or aria2c's tab-separated mirrors, is refused with the
    /// way to write it (not fetched as one URL with %20 in it); its option lines go with it.
    /// A space inside a URL alone is still a URL (sent as %20).
    func testAURLLineHoldsOneURLAndNothingElse() {
        let list = parse(
            Array("http://h/a.bin out=b.bin\n  header=X: 1\nhttp://h/c.bin\thttp://mirror/c.bin\nhttp://h/my file.bin\n".utf8))
        XCTAssertEqual(list.entries.map(\.url), ["http://h/my file.bin"])
        XCTAssertEqual(
            list.problems.map(\.description),
            [
                "list:1: out=b.bin goes on its own line below the URL, indented",
                "list:3: several URLs on one line (aria2c's mirrors) are not supported: one URL per line",
            ])
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
