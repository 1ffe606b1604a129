@testable import AFGetKit
import Foundation
import XCTest

final class LinkExtractionTests: XCTestCase {
    private func links(_ html: String, charset: String? = nil) -> PageLinks {
        HTMLLinks.read(Array(html.utf8), charset: charset)
    }

    func testElementsAndTheirKinds() {
        let found = links(
            """
            <!DOCTYPE html><html><head>
            <base href="http://cdn.example/base/">
            <link rel="stylesheet" href="site.css"><link rel="alternate" href="feed.xml">
            <link rel="icon shortcut" href="/favicon.ico">
            <script src="app.js"></script>
            <meta http-equiv="Refresh" content="5; URL='next.html'">
            </head><body background="bg.png">
            <a href="page.html">p</a><a name="anchor">no href</a><area href="map.html">
            <img src="i.png" srcset="i-1x.png 1x, i,2x.png 2x,i-480.png 480w">
            <picture><source srcset="s.webp"></picture>
            <video src="v.mp4" poster="poster.jpg"><track src="subs.vtt"></video><audio src="a.ogg"></audio>
            <iframe src="frame.html"></iframe><embed src="e.swf"><object data="o.svg"></object>
            <input type="image" src="button.png">
            <div style="background: url('div.png')">x</div>
            <style>@import "imported.css"; p { background: url(styled.png) }</style>
            </body></html>
            """)
        XCTAssertEqual(found.base, "http://cdn.example/base/")
        XCTAssertFalse(found.noFollow)
        XCTAssertFalse(found.isListing)
        XCTAssertEqual(
            found.links,
            [
                FoundLink("site.css", .requisite), FoundLink("feed.xml", .page), FoundLink("/favicon.ico", .requisite),
                FoundLink("app.js", .requisite), FoundLink("next.html", .page), FoundLink("bg.png", .requisite),
                FoundLink("page.html", .page), FoundLink("map.html", .page), FoundLink("i.png", .requisite),
                FoundLink("i-1x.png", .requisite), FoundLink("i,2x.png", .requisite), FoundLink("i-480.png", .requisite),
                FoundLink("s.webp", .requisite), FoundLink("v.mp4", .requisite), FoundLink("poster.jpg", .requisite),
                FoundLink("subs.vtt", .requisite), FoundLink("a.ogg", .requisite), FoundLink("frame.html", .requisite),
                FoundLink("e.swf", .requisite), FoundLink("o.svg", .requisite), FoundLink("button.png", .requisite),
                FoundLink("div.png", .requisite), FoundLink("imported.css", .requisite), FoundLink("styled.png", .requisite),
            ])
    }

    func testMetaRobotsNofollow() {
        XCTAssertTrue(links("<meta name=\"ROBOTS\" content=\"noindex, NOFOLLOW\"><a href=x>x</a>").noFollow)
        XCTAssertTrue(links("<meta name=robots content=none>").noFollow)
        XCTAssertFalse(links("<meta name=robots content=noindex>").noFollow)
    }

    func testBrokenHTMLIsReadAsBrowsersWould() {
        let found = links("<p><a href=one.html>one<a href='two.html'>two<table><td><a href=\"three.html\"")
        XCTAssertEqual(found.links.map(\.reference), ["one.html", "two.html", "three.html"])
    }

    func testCharsetOfTheResponseOrTheDocument() {
        // "é" in ISO-8859-1 is the byte 0xE9: read in the document's charset, it is "é".
        let latin1: [UInt8] = Array("<a href=\"caf".utf8) + [0xE9] + Array(".html\">x</a>".utf8)
        XCTAssertEqual(HTMLLinks.read(latin1, charset: "ISO-8859-1").links.map(\.reference), ["café.html"])
        let declared = Array("<html><head><meta charset=\"iso-8859-1\"></head><body>".utf8) + latin1
        XCTAssertEqual(HTMLLinks.read(declared).links.map(\.reference), ["café.html"])
        XCTAssertEqual(CrawlDocument.charset(of: "text/html; charset=\"ISO-8859-1\""), "ISO-8859-1")
        XCTAssertNil(CrawlDocument.charset(of: "text/html"))
    }

    func testDocumentKinds() throws {
        XCTAssertEqual(CrawlDocument.kind(contentType: "text/html; charset=utf-8", path: "x.bin"), .html)
        XCTAssertEqual(CrawlDocument.kind(contentType: "application/xhtml+xml", path: "x"), .html)
        XCTAssertEqual(CrawlDocument.kind(contentType: "TEXT/CSS", path: "x"), .css)
        XCTAssertNil(CrawlDocument.kind(contentType: "application/octet-stream", path: "x.html"))
        XCTAssertNil(CrawlDocument.kind(contentType: "text/plain", path: "x.css"))
        // A file left by an earlier run: its name or its first bytes.
        let directory = try temporaryDirectory()
        let page = directory + "/page.php?id=2"
        let text = directory + "/notes"
        try Data(" \n<!DOCTYPE html><title>x</title>".utf8).write(to: URL(fileURLWithPath: page))
        try Data("plain words".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertEqual(CrawlDocument.kind(contentType: nil, path: page), .html)
        XCTAssertNil(CrawlDocument.kind(contentType: nil, path: text))
        XCTAssertEqual(CrawlDocument.kind(contentType: nil, path: directory + "/site.CSS"), .css)
    }

    func testCSS() {
        let css = """
            @import url("print.css") print;
            @IMPORT 'theme.css';
            /* url(commented.png) */
            .a { background: URL( spaced.png ) }
            .b { background: url(esc\\61ped.png) }
            .c { content: "url(in-a-string.png)"; background-image: url(  "quoted with space.png"  ) }
            .d { mask: myurl(not-a-url.png) }
            .e { background: url() }
            """
        XCTAssertEqual(
            CSSLinks.references(in: css),
            ["print.css", "theme.css", "spaced.png", "escaped.png", "quoted with space.png"])
    }

    func testSourceSetsAndRefresh() {
        XCTAssertEqual(HTMLLinks.sourceSet("a.png"), ["a.png"])
        XCTAssertEqual(HTMLLinks.sourceSet(" a.png 1x , b.png 2x"), ["a.png", "b.png"])
        XCTAssertEqual(HTMLLinks.sourceSet("a,b.png 1x,c.png"), ["a,b.png", "c.png"])
        // A URL ends at a blank, not at a comma inside it.
        XCTAssertEqual(HTMLLinks.sourceSet("a.png,,b.png"), ["a.png,,b.png"])
        XCTAssertEqual(HTMLLinks.sourceSet("a.png (min-width: 3px, x) 2x, b.png"), ["a.png", "b.png"])
        XCTAssertEqual(HTMLLinks.refreshTarget("0;url=/new/"), "/new/")
        XCTAssertEqual(HTMLLinks.refreshTarget("5, URL = \"x.html\""), "x.html")
        XCTAssertEqual(HTMLLinks.refreshTarget("3;next.html"), "next.html")
        XCTAssertNil(HTMLLinks.refreshTarget("30"))
    }

    /// Listings saved from the servers themselves (Scripts/crawl-listings.sh) over one tree:
    /// each known for a listing, so its parent and breadcrumb links above are not followed;
    /// /pub/data/ holding a.txt, "b file.iso", é.txt and "sub dir/".
    func testServerListings() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Listings")
        let listing = try XCTUnwrap(CrawlURL.normalized("http://h/pub/data/"))
        let scope = try CrawlScope(settings: CrawlSettings(), starts: [listing])
        let expected: Set<String> = [
            "http://h/pub/data/a.txt", "http://h/pub/data/b%20file.iso", "http://h/pub/data/%C3%A9.txt",
            "http://h/pub/data/sub%20dir/",
        ]
        for server in ["nginx", "apache", "lighttpd", "caddy", "python"] {
            let path = folder.appendingPathComponent("\(server).html").path
            let found = try XCTUnwrap(CrawlDocument.links(inFileAt: path, kind: .html, charset: nil), server)
            XCTAssertTrue(found.isListing, server)
            let source = LinkSource(url: listing, isListing: found.isListing)
            var followed: Set<String> = []
            for link in found.links {
                // Caddy's breadcrumb links the listing itself, which a crawl has already seen.
                guard let url = CrawlURL.normalized(link.reference, base: listing), url != listing else { continue }
                if scope.verdict(for: url, kind: link.kind, depth: 1, from: source) == .fetch(keep: true) {
                    followed.insert(url.text)
                }
            }
            XCTAssertEqual(followed, expected, server)
        }
    }

    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "crawl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
