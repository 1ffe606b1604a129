@testable import AFGetKit
import XCTest

final class CrawlLayoutTests: XCTestCase {
    func testPathsAsWgetLaysThemOut() throws {
        let plain = CrawlLayout(directory: "out")
        let noHost = CrawlLayout(directory: "out", hostDirectories: false)
        let cut = CrawlLayout(directory: "out", hostDirectories: false, cutDirectories: 2)
        let cutMore = CrawlLayout(directory: ".", cutDirectories: 5)
        let flat = CrawlLayout(directory: "out", directories: false)
        let rows: [(CrawlLayout, String, String, UInt)] = [
            (plain, "http://h/pub/data/a.txt", "out/h/pub/data/a.txt", #line),
            (plain, "http://h:8080/a.txt", "out/h:8080/a.txt", #line),
            (plain, "https://h:443/a.txt", "out/h/a.txt", #line),
            (plain, "http://h/", "out/h/index.html", #line),
            (plain, "http://h/pub/data/", "out/h/pub/data/index.html", #line),
            (plain, "http://h/pub/sub%20dir/%C3%A9.txt", "out/h/pub/sub dir/é.txt", #line),
            (plain, "http://h/page.php?id=2&x=a/b", "out/h/page.php?id=2&x=a%2Fb", #line),
            (plain, "http://h/dir/?C=M;O=D", "out/h/dir/index.html?C=M;O=D", #line),
            (plain, "http://h/a/..%2F..%2Fetc/passwd", "out/h/a/_.._etc/passwd", #line),
            (plain, "http://h/%2Ehidden/x", "out/h/hidden/x", #line),
            (noHost, "http://h/pub/data/a.txt", "out/pub/data/a.txt", #line),
            (cut, "http://h/pub/data/sub/a.txt", "out/sub/a.txt", #line),
            (cut, "http://h/pub/data/a.txt", "out/a.txt", #line),
            (cutMore, "http://h/pub/data/a.txt", "h/a.txt", #line),
            (flat, "http://h/pub/data/a.txt", "out/a.txt", #line),
            (flat, "http://h/pub/data/", "out/index.html", #line),
        ]
        for (layout, link, expected, line) in rows {
            XCTAssertEqual(layout.path(for: try XCTUnwrap(CrawlURL.normalized(link))), expected, line: line)
        }
    }
}
