import CurlCore
import XCTest

final class CurlURLTests: XCTestCase {
    func testParsesSchemeHostPortAndRawPath() throws {
        let url = try CurlURL("HTTP://Example.ORG/a%20b/c.txt?x=1")
        XCTAssertEqual(url.scheme, "http")
        XCTAssertEqual(url.host, "example.org")
        XCTAssertEqual(url.port, 80)
        XCTAssertEqual(url.path, "/a%20b/c.txt")
        XCTAssertTrue(url.isHTTP)
    }

    func testOriginIncludesDefaultPorts() throws {
        XCTAssertEqual(try CurlURL("https://h/x").origin, "https://h:443")
        XCTAssertEqual(try CurlURL("https://h:443/y").origin, try CurlURL("https://h/x").origin)
        XCTAssertNotEqual(try CurlURL("http://h:8080/").origin, try CurlURL("http://h/").origin)
    }

    func testRejectsMalformedURLs() {
        for bad in ["", "http://[::1", "no scheme here", "http://"] {
            XCTAssertThrowsError(try CurlURL(bad), bad)
        }
    }

    /// A list's first pass reads only what names a URL's file: the same scheme, host and path
    /// as a whole reading, and the same URLs refused.
    func testReadingForADestinationGivesTheSameNameAndRefusesTheSame() throws {
        let urls = [
            "HTTP://Example.ORG/a%20b/c.txt?x=1", "https://h:8443/dir/../x.iso#frag", "ftp://user@h/pub/a b.tar",
            "sftp://h/~/f", "http://[::1]:80/", "http://h", "", "http://[::1", "no scheme here", "http://", "http://h/a\u{0}b",
        ]
        for string in urls {
            let whole = Result { () throws(CurlURL.ParseError) in try CurlURL(string) }
            let outline = Result { () throws(CurlURL.ParseError) in try CurlURL(string, reading: .destination) }
            switch (whole, outline) {
            case (.success(let whole), .success(let outline)):
                XCTAssertEqual([outline.scheme, outline.host, outline.path], [whole.scheme, whole.host, whole.path], string)
            case (.failure(let whole), .failure(let outline)):
                XCTAssertEqual(outline, whole, string)
            default:
                XCTFail("\(string): \(whole) against \(outline)")
            }
        }
    }
}
