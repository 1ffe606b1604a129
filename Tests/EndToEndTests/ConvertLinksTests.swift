import Foundation
import Glibc
import TestServer
import XCTest

/// `afget -r --convert-links` over a small static site on a real nginx: once the crawl is over
/// the pages link to the files fetched by relative paths and to the rest by absolute URLs,
/// every other byte of them as the server sent it, and the files that are not pages exact
/// (issue 54, point 8).
final class ConvertLinksTests: XCTestCase {
    private var nginx: NginxServer!
    private var directory: URL!
    /// The site's files that are no pages, by path below /site/: each one's sha256.
    private var files: [String: String] = [:]

    private let index = """
        <!DOCTYPE html>
        <html><head><title>Site</title>
        <link rel="stylesheet" href="css/site.css">
        </head><body>
        <h1>Site &amp; more</h1>
        <a href="about.html#team">About</a>
        <A HREF='docs/guide.html?lang=en'>Guide</A>
        <a href="../elsewhere/file.txt">Elsewhere</a>
        <img src="img/logo.png" alt="logo"> <a href="img/big.bin">big</a>
        </body></html>
        """
    private let about = """
        <html><body id="team"><a href="/site/">Home</a> <a href=./>Home too</a>
        <img srcset="img/logo.png 1x, img/logo2x.png 2x"></body></html>
        """
    private let guide = """
        <html><head><style>body { background: url(/site/img/bg.png) }</style></head>
        <body><a href="../">Home</a> <a href="../about.html#team">About</a></body></html>
        """
    private let styleSheet = """
        h1 { background: url("/site/img/bg.png") } /* url(/site/img/logo.png) */
        """

    override func setUpWithError() throws {
        // Pages and style sheets are read by their Content-Type: nginx's own defaults name no CSS.
        nginx = try NginxServer(locations: "types { text/html html; text/css css; image/png png; }")
        directory = try makeScratchDirectory()
        let pages = ["index.html": index, "about.html": about, "docs/guide.html": guide, "css/site.css": styleSheet]
        for (name, text) in pages { try write(Data(text.utf8), to: "site/" + name) }
        for (name, size) in [("img/logo.png", 3_000), ("img/logo2x.png", 9_000), ("img/bg.png", 500), ("img/big.bin", 3_000_000)]
        {
            let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255) })
            try write(bytes, to: "site/" + name)
            files[name] = sha256Hex(bytes)
        }
        // Above the start directory: with -np a link to it is not followed.
        try write(Data("outside".utf8), to: "elsewhere/file.txt")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        nginx = nil
    }

    private func write(_ data: Data, to name: String) throws {
        let file = nginx.root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// A saved file's text, by path below the host's directory.
    private func saved(_ path: String) throws -> String {
        try String(
            contentsOf: directory.appendingPathComponent("out/127.0.0.1:\(nginx.port)/" + path), encoding: .utf8)
    }

    private func assertFilesExact(
        _ names: [String], under prefix: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for name in names {
            let sum = files[name]
            let path = directory.appendingPathComponent("out/127.0.0.1:\(nginx.port)/\(prefix)site/" + name).path
            XCTAssertEqual(sha256Hex(ofFile: path), sum, name, file: file, line: line)
        }
    }

    func testThePagesLinkToTheFilesFetchedAndTheRestToTheServer() throws {
        let arguments = ["-r", "-np", "--convert-links", "-d", "out", nginx.url("/site/")]
        let result = try Afget.run(arguments + ["--report", "report.json"], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("4 pages read"), result.stderr)
        XCTAssertTrue(result.stderr.contains("links converted in 4 pages"), result.stderr)
        XCTAssertTrue(
            try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
                .contains("\"converted_pages\":4"))
        XCTAssertEqual(
            try saved("site/index.html"),
            index.replacingOccurrences(of: "'docs/guide.html?lang=en'", with: "'docs/guide.html%3Flang=en'")
                .replacingOccurrences(of: "\"../elsewhere/file.txt\"", with: "\"\(nginx.url("/elsewhere/file.txt"))\""))
        XCTAssertEqual(
            try saved("site/about.html"),
            about.replacingOccurrences(of: "\"/site/\"", with: "\"index.html\"")
                .replacingOccurrences(of: "href=./>", with: "href=index.html>"))
        XCTAssertEqual(
            try saved("site/docs/guide.html?lang=en"),
            guide.replacingOccurrences(of: "url(/site/img/bg.png)", with: "url(../img/bg.png)")
                .replacingOccurrences(of: "\"../\"", with: "\"../index.html\""))
        XCTAssertEqual(
            try saved("site/css/site.css"),
            styleSheet.replacingOccurrences(of: "url(\"/site/img/bg.png\")", with: "url(\"../img/bg.png\")"))
        assertFilesExact(Array(files.keys), under: "")
        XCTAssertFalse(nginx.loggedRequests().contains { $0.uri.hasPrefix("/elsewhere/") })

        // The same command again reads the converted pages: their links lead to the same files,
        // so nothing is fetched again, and the pages stay as they are.
        let before = nginx.loggedRequests().count
        let converted = try ["site/index.html", "site/about.html", "site/docs/guide.html?lang=en"].map(saved)
        let again = try Afget.run(arguments, in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(nginx.loggedRequests().dropFirst(before).map(\.uri), ["/robots.txt"])
        XCTAssertTrue(again.stderr.contains("links converted in 0 pages"), again.stderr)
        XCTAssertEqual(try ["site/index.html", "site/about.html", "site/docs/guide.html?lang=en"].map(saved), converted)
    }

    /// A page whose bytes its own charset cannot read (Shift_JIS declared, other bytes sent):
    /// libxml2 stops at the bad bytes, and the page is read again as Latin-1 for the links after
    /// them; the library's own error lines (`encoding error : input conversion
    /// failed ...`), written straight to stderr once per parse, never reach the terminal. `-q`
    /// prints nothing on success.
    func testAPageItsCharsetCannotReadLeavesNoLibraryNoiseOnTheTerminal() throws {
        var page = Data("<html><head><meta charset=\"shift_jis\"></head><body><p>".utf8)
        page += Data([0x81, 0xFF, 0xFE, 0xA0, 0x80])
        page += Data("</p><a href=\"b.html\">b</a></body></html>".utf8)
        try write(page, to: "mangled/index.html")
        try write(Data("<p>b</p>".utf8), to: "mangled/b.html")

        let result = try Afget.run(["-q", "-r", "-np", "--convert-links", "-d", "out", nginx.url("/mangled/")], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: directory.appendingPathComponent("out/127.0.0.1:\(nginx.port)/mangled/index.html").path))
        // The link after the bad bytes: found by reading the page again as Latin-1.
        XCTAssertEqual(try saved("mangled/b.html"), "<p>b</p>")
    }

    /// A crawl stopped by Ctrl-C converts nothing (its pages are as the server sent them); the
    /// same command again finishes the crawl and converts every page, those of the first run too.
    func testACrawlStoppedThenFinishedIsConvertedByTheRunThatFinishesIt() throws {
        // Through nginx's 256 KB/s location: img/big.bin takes 12 s.
        let arguments = ["-r", "-np", "--convert-links", "-d", "out", nginx.url("/slower/site/")]
        let guidePath = directory.appendingPathComponent("out/127.0.0.1:\(nginx.port)/slower/site/docs/guide.html?lang=en")
        let (process, _, stderr) = try Afget.start(arguments, in: directory)
        waitUntil("the pages in place") { FileManager.default.fileExists(atPath: guidePath.path) }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stopped = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 130, stopped)
        XCTAssertEqual(try saved("slower/site/index.html"), index)

        let again = try Afget.run(arguments, in: directory)

        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("links converted in 4 pages"), again.stderr)
        XCTAssertEqual(
            try saved("slower/site/index.html"),
            index.replacingOccurrences(of: "'docs/guide.html?lang=en'", with: "'docs/guide.html%3Flang=en'")
                .replacingOccurrences(
                    of: "\"../elsewhere/file.txt\"", with: "\"\(nginx.url("/slower/elsewhere/file.txt"))\""))
        // The style sheets' image is at /site/img/bg.png, not below /slower/.
        assertFilesExact(["img/logo.png", "img/logo2x.png", "img/big.bin"], under: "slower/")
    }
}
