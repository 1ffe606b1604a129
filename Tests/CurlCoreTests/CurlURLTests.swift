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
}
