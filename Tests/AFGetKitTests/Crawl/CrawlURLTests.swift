@testable import AFGetKit
import XCTest

final class CrawlURLTests: XCTestCase {
    func testNormalizedAbsoluteURLs() {
        let rows: [(given: String, normalized: String?)] = [
            ("HTTP://Ex.COM:80/a/./b/../c?x=1#frag", "http://ex.com/a/c?x=1"),
            ("https://h:443/", "https://h/"),
            ("https://h:8443/x", "https://h:8443/x"),
            ("http://h", "http://h/"),
            ("http://h/%7euser/%7Ea", "http://h/~user/~a"),
            ("http://h/a%2fb/%3f", "http://h/a%2Fb/%3F"),
            ("http://h/%2e%2e/a/%2E/b", "http://h/a/b"),
            ("http://h/a b", "http://h/a%20b"),
            ("http://h/é", "http://h/%C3%A9"),
            ("http://h/100%", "http://h/100%25"),
            ("http://h/?q=%7e%41", "http://h/?q=~A"),
            ("http://h/a\"<>b", "http://h/a%22%3C%3Eb"),
            ("  http://h/x\n\ty  ", "http://h/xy"),
            ("mailto:someone@example.org", nil),
            ("javascript:void(0)", nil),
            ("ftp://h/file", nil),
            ("data:text/plain,hi", nil),
            ("http://h:99999/", nil),
        ]
        for row in rows {
            XCTAssertEqual(CrawlURL.normalized(row.given)?.text, row.normalized, row.given)
        }
    }

    func testLinksResolvedAgainstTheirPage() throws {
        let page = try XCTUnwrap(CrawlURL.normalized("http://h/pub/data/index.html"))
        let rows: [(link: String, normalized: String?)] = [
            ("a.txt", "http://h/pub/data/a.txt"),
            ("../", "http://h/pub/"),
            ("../../../../x", "http://h/x"),
            ("/root", "http://h/root"),
            ("//other.example/p", "http://other.example/p"),
            ("?C=M;O=D", "http://h/pub/data/index.html?C=M;O=D"),
            ("#top", "http://h/pub/data/index.html"),
            ("", "http://h/pub/data/index.html"),
            ("sub%20dir/", "http://h/pub/data/sub%20dir/"),
            ("%c3%a9.txt", "http://h/pub/data/%C3%A9.txt"),
            ("b file.iso", "http://h/pub/data/b%20file.iso"),
            ("HTTPS://H/S", "https://h/S"),
            ("mailto:x@y", nil),
        ]
        for row in rows {
            XCTAssertEqual(CrawlURL.normalized(row.link, base: page)?.text, row.normalized, row.link)
        }
    }

    func testNormalizingAgainIsTheSameURLAndKey() throws {
        for given in ["HTTP://Ex.COM:80/a/%7e/b%2f?x=%41#f", "http://h/é?a b"] {
            let once = try XCTUnwrap(CrawlURL.normalized(given))
            let twice = try XCTUnwrap(CrawlURL.normalized(once.text))
            XCTAssertEqual(once, twice, given)
            XCTAssertEqual(once.key, twice.key)
        }
    }

    func testParts() throws {
        let url = try XCTUnwrap(CrawlURL.normalized("https://Example.org:8443/a/b/c.html?q=1"))
        XCTAssertEqual(url.host, "example.org")
        XCTAssertEqual(url.port, 8443)
        XCTAssertEqual(url.hostAndPort, "example.org:8443")
        XCTAssertEqual(url.path, "/a/b/c.html")
        XCTAssertEqual(url.query, "q=1")
        XCTAssertEqual(url.directory, "/a/b/")
        XCTAssertEqual(try XCTUnwrap(CrawlURL.normalized("http://h/a/b/")).directory, "/a/b/")
        XCTAssertEqual(try XCTUnwrap(CrawlURL.normalized("http://h:80/")).hostAndPort, "h")
    }

    func testPercentNormalizing() {
        let rows: [(String, String)] = [
            ("/plain/path-1.txt", "/plain/path-1.txt"),
            ("/%41%62%2D%5f%7E", "/Ab-_~"),
            ("/%2f%3a%c3%a9", "/%2F%3A%C3%A9"),
            ("/%zz", "/%25zz"),
            ("/%4", "/%254"),
            ("/a b|c", "/a%20b%7Cc"),
            ("/!$&'()*+,;=:@", "/!$&'()*+,;=:@"),
        ]
        for (given, expected) in rows {
            XCTAssertEqual(PercentNormalizing.normalized(given), expected, given)
        }
    }
}
