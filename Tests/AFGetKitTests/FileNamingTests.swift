@testable import AFGetKit
import AFGetSupport
import XCTest

final class FileNamingTests: XCTestCase {
    func testLastSegmentPercentDecoded() {
        XCTAssertEqual(FileNaming.name(forURLPath: "/dir/file.iso"), "file.iso")
        XCTAssertEqual(FileNaming.name(forURLPath: "/a/my%20file%C3%A9.txt"), "my fileé.txt")
        XCTAssertEqual(FileNaming.name(forURLPath: "/a/"), "index.html")
        XCTAssertEqual(FileNaming.name(forURLPath: "/"), "index.html")
        XCTAssertEqual(FileNaming.name(forURLPath: ""), "index.html")
    }

    func testUndecodableEscapesAreKeptAsGiven() {
        XCTAssertEqual(FileNaming.name(forURLPath: "/x/%FF%FE.bin"), "%FF%FE.bin")
        XCTAssertEqual(FileNaming.name(forURLPath: "/x/100%.txt"), "100%.txt")
    }

    func testNamesNeverLeaveTheDirectoryOrHide() {
        XCTAssertEqual(FileNaming.name(forURLPath: "/x/..%2F..%2Fetc%2Fpasswd"), "_.._etc_passwd")
        XCTAssertEqual(FileNaming.safeComponent(".."), "index.html")
        XCTAssertEqual(FileNaming.safeComponent("."), "index.html")
        XCTAssertEqual(FileNaming.safeComponent(".bashrc"), "bashrc")
        XCTAssertEqual(FileNaming.safeComponent("a\\b"), "a_b")
        XCTAssertEqual(FileNaming.safeComponent("evil\u{202E}gpj.exe"), "evilgpj.exe")
        XCTAssertEqual(FileNaming.safeComponent("line\nbreak\u{7}"), "linebreak")
        XCTAssertEqual(FileNaming.safeComponent("a/b"), "a_b")
        XCTAssertEqual(FileNaming.safeComponent(" \tpadded name.txt "), "padded name.txt")
        XCTAssertEqual(FileNaming.safeComponent("plain~name-1.tar.gz"), "plain~name-1.tar.gz")
    }

    func testLongNamesAreShortenedDeterministically() {
        let long = String(repeating: "n", count: 400) + ".bin"
        let short = FileNaming.safeComponent(long)
        XCTAssertLessThanOrEqual((short + ".afresume").utf8.count, 255)
        XCTAssertEqual(short, FileNaming.safeComponent(long), "the same name maps to the same short one")
        XCTAssertNotEqual(short, FileNaming.safeComponent(String(repeating: "n", count: 401) + ".bin"))
    }

    func testShortenedNamesKeepTheirExtension() {
        let cases: [(String, String)] = [
            (String(repeating: "é", count: 200) + ".pdf", ".pdf"),
            (String(repeating: "n", count: 300) + ".tar.gz", ".tar.gz"),
            (String(repeating: "n", count: 300) + ".a.b.c", ".b.c"),
            (String(repeating: "n", count: 300) + ".not-an-extension", ""),
            (String(repeating: "n", count: 300) + ".toolongext", ""),
            ("." + String(repeating: "n", count: 300), ""),
        ]
        for (name, ending) in cases {
            let short = FileNaming.shortened(name)
            XCTAssertLessThanOrEqual(short.utf8.count, FileNaming.maxNameBytes, name)
            XCTAssertTrue(short.hasPrefix(String(name.prefix(100))), short)
            XCTAssertTrue(short.dropLast(ending.count).contains("~"), short)
            XCTAssertEqual(FileNaming.fileExtension(of: short), ending, short)
        }
    }

    /// afget's own files for a destination whose name leaves no room for `.afresume`.
    func testWorkingFilesOfALongNameHaveAShortenedNameBesideIt() {
        XCTAssertEqual(FileNaming.workingFileStem(for: "dir/file.iso"), "dir/file.iso")
        let fits = String(repeating: "n", count: FileNaming.maxNameBytes)
        XCTAssertEqual(FileNaming.workingFileStem(for: "dir/" + fits), "dir/" + fits)
        let long = String(repeating: "n", count: 251) + ".iso"
        XCTAssertEqual(FileNaming.workingFileStem(for: "a/b/" + long), "a/b/" + FileNaming.shortened(long))
        XCTAssertEqual(FileNaming.workingFileStem(for: long), FileNaming.shortened(long))
        XCTAssertEqual(FileNaming.workingFileStem(for: "/" + long), "/" + FileNaming.shortened(long))
        // Bytes are counted, not Characters: one byte too many in two-byte letters.
        let wide = String(repeating: "é", count: FileNaming.maxNameBytes / 2) + (FileNaming.maxNameBytes % 2 == 0 ? "x" : "")
        XCTAssertEqual(FileNaming.workingFileStem(for: "d/" + wide), "d/" + FileNaming.shortened(wide))
        let wideFits = String(repeating: "é", count: FileNaming.maxNameBytes / 2)
        XCTAssertEqual(FileNaming.workingFileStem(for: "d/é/" + wideFits), "d/é/" + wideFits)
    }

    func testNumberedNames() {
        XCTAssertEqual(FileNaming.numbered("a.tar.gz", 1), "a.tar.1.gz")
        XCTAssertEqual(FileNaming.numbered("README", 2), "README.2")
        XCTAssertEqual(FileNaming.numbered(".hidden", 3), ".hidden.3")
    }

    /// A directory and a name make one path, with one slash between them.
    func testJoiningADirectoryAndAName() {
        let rows: [(directory: String, name: String, path: String)] = [
            ("", "a.iso", "a.iso"), (".", "a.iso", "a.iso"), ("/", "a.iso", "/a.iso"), ("d", "a.iso", "d/a.iso"),
            ("d/", "a.iso", "d/a.iso"), ("/x/y", "a", "/x/y/a"), ("./d", "a", "./d/a"), ("dé", "ü", "dé/ü"),
            (String(repeating: "d", count: 200), "a.iso", String(repeating: "d", count: 200) + "/a.iso"),
        ]
        for row in rows {
            XCTAssertEqual(joinPath(row.directory, row.name), row.path, "\(row.directory) + \(row.name)")
        }
    }

    /// An item's host key is its URL's origin, scheme and name lowercased.
    func testAnItemsHostKeyIsItsOrigin() {
        let rows: [(url: String, key: String)] = [
            ("http://example.invalid/a", "http://example.invalid:80"),
            ("HTTPS://Example.INVALID:8443/a", "https://example.invalid:8443"),
            ("ftp://h/f", "ftp://h:21"), ("not a url", ""),
        ]
        for row in rows {
            XCTAssertEqual(DownloadItem(index: 0, url: row.url, output: .directory(".")).hostKey, row.key, row.url)
        }
    }
}
