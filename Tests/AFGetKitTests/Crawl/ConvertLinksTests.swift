@testable import AFGetKit
import XCTest

/// `-k`'s rewriting, on bytes in memory: no sockets, no files.
final class ConvertLinksTests: XCTestCase {
    private let layout = CrawlLayout(directory: "out")

    /// The page `http://h/a/` (saved as out/h/a/index.html) converted, with these files in place.
    private func converted(
        _ text: String, kind: CrawlDocument.Kind = .html, charset: String? = nil, inPlace: Set<String>,
        pagePath: String = "out/h/a/index.html", pageURL: String = "http://h/a/"
    ) -> String? {
        converted(Array(text.utf8), kind: kind, charset: charset, inPlace: inPlace, pagePath: pagePath, pageURL: pageURL)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    private func converted(
        _ bytes: [UInt8], kind: CrawlDocument.Kind = .html, charset: String? = nil, inPlace: Set<String>,
        pagePath: String = "out/h/a/index.html", pageURL: String = "http://h/a/"
    ) -> [UInt8]? {
        LinkConversion.converted(
            bytes, kind: kind, charset: charset, pagePath: pagePath, pageURL: CrawlURL.normalized(pageURL)!, layout: layout,
            isInPlace: { inPlace.contains($0) })
    }

    func testRelativePathsBetweenFiles() {
        let cases: [(page: String, target: String, expected: String)] = [
            ("out/h/a/b.html", "out/h/a/c.html", "c.html"),
            ("out/h/a/b.html", "out/h/img/x.png", "../img/x.png"),
            ("out/h/index.html", "out/h/a/b/c.html", "a/b/c.html"),
            ("out/h/a/b/c.html", "out/h/index.html", "../../index.html"),
            ("out/h/a/b.html", "out/h/a/b.html", "b.html"),
            ("h/index.html", "h2:8080/x.css", "../h2%3A8080/x.css"),
            ("./out/h/p.html", "out/h/page.php?id=2&b=1", "page.php%3Fid=2&b=1"),
            ("out/h/p.html", "out/h/a b#1%.html", "a%20b%231%25.html"),
            ("/tmp/out/h/p.html", "/tmp/out/h/d/é.png", "d/%C3%A9.png"),
        ]
        for (page, target, expected) in cases {
            XCTAssertEqual(LinkRewriter.relativeReference(from: page, to: target), expected, "\(page) → \(target)")
        }
    }

    func testEachLinkRewritten() {
        let rewriter = LinkRewriter(
            layout: layout, pagePath: "out/h/a/index.html", base: CrawlURL.normalized("http://h/a/")!,
            isInPlace: {
                ["out/h/a/b.html", "out/h/index.html", "out/h/a/page.php?id=2", "out/h/img/logo.png", "out/h/a/index.html"]
                    .contains($0)
            })
        let cases: [(reference: String, expected: String?)] = [
            ("b.html", nil),  // already the relative path
            ("/a/b.html", "b.html"),
            ("http://H:80/a/b.html#part", "b.html#part"),
            ("../", "../index.html"),
            ("../img/./logo.png", "../img/logo.png"),
            ("page.php?id=2", "page.php%3Fid=2"),
            ("page.php?id=2#top", "page.php%3Fid=2#top"),
            ("./", "index.html"),
            ("#top", nil),
            ("", nil),
            ("mailto:someone@example.org", nil),
            ("javascript:void(0)", nil),
            ("c.html", "http://h/a/c.html"),
            ("/outside/f.zip#x", "http://h/outside/f.zip#x"),
            ("https://other.example/x", nil),  // absolute already
            ("//other.example/x", "http://other.example/x"),
        ]
        for (reference, expected) in cases {
            XCTAssertEqual(rewriter.rewritten(reference), expected, reference)
        }
    }

    func testOnlyTheLinksChangeInAPage() {
        let page = """
            <!DOCTYPE html>
            <HTML><Head><TITLE>t &amp; co</TITLE>
              <link rel=stylesheet HREF='/site.css' >
            <!-- <a href="/a/b.html"> in a comment stays -->
            </head>
            <body>
            <p>text with href="/a/b.html" in it</p>
            <a   href = "/a/b.html#s"  class="x">one</a> <A HREF=c.html>two</A>
            <a href="mailto:x@example.org">mail</a><a href="#top">top</a>
            <img alt="a > b" src="../img/logo.png">
            </body></html>
            """
        let expected = """
            <!DOCTYPE html>
            <HTML><Head><TITLE>t &amp; co</TITLE>
              <link rel=stylesheet HREF='../site.css' >
            <!-- <a href="/a/b.html"> in a comment stays -->
            </head>
            <body>
            <p>text with href="/a/b.html" in it</p>
            <a   href = "b.html#s"  class="x">one</a> <A HREF=http://h/a/c.html>two</A>
            <a href="mailto:x@example.org">mail</a><a href="#top">top</a>
            <img alt="a > b" src="../img/logo.png">
            </body></html>
            """
        XCTAssertEqual(converted(page, inPlace: ["out/h/site.css", "out/h/a/b.html", "out/h/img/logo.png"]), expected)
    }

    func testAPageWithNothingToChangeIsLeftAlone() {
        XCTAssertNil(converted("<p><a href='b.html'>b</a> <a href='http://other.example/'>o</a>", inPlace: ["out/h/a/b.html"]))
    }

    func testEntityEncodedValues() {
        let page = #"<a href="page.php?id=2&amp;x=1">p</a><a href="q.php?a=1&amp;b=&#50;">q</a><a href="&#x2F;a/b.html">b</a>"#
        XCTAssertEqual(
            converted(page, inPlace: ["out/h/a/page.php?id=2&x=1", "out/h/a/b.html"]),
            #"<a href="page.php%3Fid=2&amp;x=1">p</a><a href="http://h/a/q.php?a=1&amp;b=2">q</a><a href="b.html">b</a>"#)
    }

    func testSourceSetCandidates() {
        let page = #"<img src="i.png" srcset="i-1x.png 1x&#44; /img/i,2x.png 2x,  far.png 480w">"#
        XCTAssertEqual(
            converted(page, inPlace: ["out/h/a/i.png", "out/h/a/i-1x.png", "out/h/img/i,2x.png"]),
            #"<img src="i.png" srcset="i-1x.png 1x&#44; ../img/i,2x.png 2x,  http://h/a/far.png 480w">"#)
    }

    func testStylesInAttributesElementsAndFiles() {
        let page = """
            <div style="background: url(&quot;/img/bg.png&quot;) no-repeat &#x22;">x</div>
            <style type="text/css">
            @import "/css/more.css"; /* url(/img/no.png) */
            p { background: URL( /img/bg.png ) }
            </style><p style='color: red'>unchanged</p>
            """
        XCTAssertEqual(
            converted(page, inPlace: ["out/h/img/bg.png", "out/h/css/more.css"]),
            """
            <div style="background: url(&quot;../img/bg.png&quot;) no-repeat &#x22;">x</div>
            <style type="text/css">
            @import "../css/more.css"; /* url(/img/no.png) */
            p { background: URL( ../img/bg.png ) }
            </style><p style='color: red'>unchanged</p>
            """)
        let sheet = """
            @import url('fonts.css');
            @font-face { src: url(/fonts/a\\ b.woff) }
            .x { background: url("gone.png") }
            """
        XCTAssertEqual(
            converted(
                sheet, kind: .css, inPlace: ["out/h/css/fonts.css", "out/h/fonts/a b.woff"], pagePath: "out/h/css/site.css",
                pageURL: "http://h/css/site.css"),
            """
            @import url('fonts.css');
            @font-face { src: url(../fonts/a%20b.woff) }
            .x { background: url("http://h/css/gone.png") }
            """)
    }

    func testBaseHrefAndRefresh() {
        let page = """
            <head><base href="http://h/docs/"><meta http-equiv="refresh" content="3; url=next.html"></head>
            <a href="guide.html">g</a><a href="other.html">o</a>
            """
        XCTAssertEqual(
            converted(page, inPlace: ["out/h/docs/next.html", "out/h/docs/guide.html"]),
            """
            <head><base href="index.html"><meta http-equiv="refresh" content="3; url=../docs/next.html"></head>
            <a href="../docs/guide.html">g</a><a href="http://h/docs/other.html">o</a>
            """)
    }

    /// libxml2 counts the page's own bytes, before it converts them to UTF-8: the links of a
    /// page in Latin-1 are found where they are, the other bytes kept as they were.
    func testAPageInAnotherCharset() {
        let page: [UInt8] =
            Array("<html><head><meta charset=\"iso-8859-1\"></head><body><p>caf".utf8) + [0xE9, 0xE9, 0xE9]
            + Array(" <a href=\"/a/b.html\">b</a> ".utf8) + [0xFC] + Array("<img src=\"x.png\"></body></html>".utf8)
        let expected: [UInt8] =
            Array("<html><head><meta charset=\"iso-8859-1\"></head><body><p>caf".utf8) + [0xE9, 0xE9, 0xE9]
            + Array(" <a href=\"b.html\">b</a> ".utf8) + [0xFC] + Array("<img src=\"http://h/a/x.png\"></body></html>".utf8)
        XCTAssertEqual(converted(page, inPlace: ["out/h/a/b.html"]), expected)
        XCTAssertEqual(converted(page, charset: "ISO-8859-1", inPlace: ["out/h/a/b.html"]), expected)
    }

    /// A value whose bytes are not the value libxml2 gave (here Latin-1, which libxml2 gives
    /// as UTF-8) is left as it was, never written over with what might be the wrong bytes.
    func testAValueNotFoundAgainIsLeftAlone() {
        let page: [UInt8] =
            Array("<meta charset=\"iso-8859-1\"><a href=\"/a/caf".utf8) + [0xE9]
            + Array(".html\">c</a><a href=\"/a/b.html\">b</a>".utf8)
        let expected: [UInt8] =
            Array("<meta charset=\"iso-8859-1\"><a href=\"/a/caf".utf8) + [0xE9]
            + Array(".html\">c</a><a href=\"b.html\">b</a>".utf8)
        XCTAssertEqual(converted(page, inPlace: ["out/h/a/b.html", "out/h/a/café.html"]), expected)
    }
}

/// The list of pages `-k` rewrites, kept in a file: every page comes back as it went, in order,
/// across the file's chunks.
final class SavedPagesTests: XCTestCase {
    func testPagesComeBackInOrder() throws {
        let pages = SavedPages()
        let long = String(repeating: "x", count: 300 << 10)
        let written = (0..<20_000).map { number in
            SavedPage(
                path: number == 7_000 ? "out/h/\(long).html" : "out/h/é/\(number)?q=1.html", url: "http://h/\(number)",
                kind: number % 3 == 0 ? .css : .html, charset: number % 2 == 0 ? nil : "iso-8859-1")
        }
        for page in written { try pages.append(page) }
        var read: [SavedPage] = []
        try pages.forEach { page in
            read.append(page)
            return true
        }
        XCTAssertEqual(read, written)

        var first: [SavedPage] = []
        try pages.forEach { page in
            first.append(page)
            return first.count < 3
        }
        XCTAssertEqual(first, Array(written.prefix(3)))
    }
}

/// Pages mangled at random are converted without a crash, and what the conversion leaves is
/// left exactly: converting its output again changes nothing more than the first time did.
final class ConvertLinksMangledPagesTests: XCTestCase {
    func testMangledPagesAreConvertedSafely() {
        let seed = Array(
            """
            <!DOCTYPE html><html><head><meta charset="utf-8"><base href="/a/">
            <meta http-equiv=refresh content='0;URL="next.html"'><style>@import 'x.css'; a{b:url( y.png )}</style>
            </head><body style="background:url(&quot;bg.png&quot;)"><a href="b.html#f" title='<a href=x>'>b</a>
            <img src=i.png srcset="i.png 1x, j.png 2x"><A HREF = "q.php?a=1&amp;b=2">q</A><!-- <a href=c> -->
            <script>document.write('<a href="s.html">')</script><p>caf&eacute; &#x263A;</p></body></html>
            """.utf8)
        let alphabet = Array("<>\"'=&;#/ \n()url,abc\u{E9}".utf8) + [0x00, 0xFF, 0xC3]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let layout = CrawlLayout(directory: "out")
        let url = CrawlURL.normalized("http://h/a/")!
        for _ in 0..<1_000 {
            var page = seed
            for _ in 0..<(1 + random(6)) {
                let at = random(page.count)
                switch random(3) {
                case 0: page[at] = alphabet[random(alphabet.count)]
                case 1: page.insert(alphabet[random(alphabet.count)], at: at)
                default: page.remove(at: at)
                }
            }
            for kind in [CrawlDocument.Kind.html, .css] {
                let convert = { (bytes: [UInt8]) in
                    LinkConversion.converted(
                        bytes, kind: kind, charset: nil, pagePath: "out/h/a/index.html", pageURL: url, layout: layout,
                        isInPlace: { $0.hasSuffix(".html") })
                }
                guard let once = convert(page) else { continue }
                XCTAssertNil(convert(once), String(decoding: page, as: UTF8.self))
            }
        }
    }
}
