@testable import AFGetKit
import XCTest

final class RobotsRulesTests: XCTestCase {
    func testLongestMatchWithAllowWinningATie() {
        let rules = RobotsRules(
            parsing: """
                # a comment
                User-agent: *
                Disallow: /private/
                Allow: /private/open/
                Disallow: /*.tmp$
                Disallow: /search*q=
                Allow: /same
                Disallow: /same
                Disallow:

                User-agent: otherbot
                Disallow: /
                """)
        let rows: [(String, Bool, UInt)] = [
            ("/", true, #line),
            ("/private/", false, #line),
            ("/private/x.html", false, #line),
            ("/private/open/x.html", true, #line),
            ("/a/b.tmp", false, #line),
            ("/a/b.tmp.html", true, #line),
            ("/search?q=x", false, #line),
            ("/search/all?lang=en&q=x", false, #line),
            ("/search", true, #line),
            ("/same", true, #line),
        ]
        for (path, allowed, line) in rows {
            XCTAssertEqual(rules.allows(pathAndQuery: path), allowed, path, line: line)
        }
    }

    func testAfgetsOwnGroupWinsOverTheStarGroup() {
        let text = """
            User-agent: *
            Disallow: /

            User-agent: Googlebot
            User-agent: AFGET
            Disallow: /cgi-bin/
            Crawl-delay: 2.5

            User-agent: afget/1.0
            Disallow: /tmp/
            """
        let rules = RobotsRules(parsing: text)
        XCTAssertTrue(rules.allows(pathAndQuery: "/docs/"))
        XCTAssertFalse(rules.allows(pathAndQuery: "/cgi-bin/x"))
        XCTAssertFalse(rules.allows(pathAndQuery: "/tmp/x"), "both of afget's groups apply")
        XCTAssertEqual(rules.crawlDelay, 2.5)
        XCTAssertFalse(RobotsRules(parsing: "User-agent: *\nDisallow: /\n").allows(pathAndQuery: "/x"))
        XCTAssertTrue(RobotsRules(parsing: "User-agent: otherbot\nDisallow: /\n").allows(pathAndQuery: "/x"))
    }

    func testLinesOutsideGroupsAndJunkAreIgnored() {
        let rules = RobotsRules(
            parsing: "Disallow: /early/\nSitemap: http://h/sitemap.xml\nnonsense\r\nUser-agent: *\r\nDisallow: /late/\r\n")
        XCTAssertTrue(rules.allows(pathAndQuery: "/early/x"))
        XCTAssertFalse(rules.allows(pathAndQuery: "/late/x"))
        XCTAssertEqual(RobotsRules(parsing: "<html>not robots</html>"), .allowAll)
    }

    func testPatternsAreMatchedWithEncodingNormalized() throws {
        let rules = RobotsRules(parsing: "User-agent: *\nDisallow: /%7euser/\nDisallow: /caf%c3%a9\n")
        XCTAssertFalse(rules.allows(try XCTUnwrap(CrawlURL.normalized("http://h/~user/x"))))
        XCTAssertFalse(rules.allows(try XCTUnwrap(CrawlURL.normalized("http://h/café"))))
        XCTAssertTrue(rules.allows(try XCTUnwrap(CrawlURL.normalized("http://h/cafe"))))
    }

    func testAFailedFetch() {
        XCTAssertEqual(RobotsRules.forFailedFetch(status: 404), .allowAll)
        XCTAssertEqual(RobotsRules.forFailedFetch(status: 403), .allowAll)
        XCTAssertEqual(RobotsRules.forFailedFetch(status: 503), .disallowAll)
        XCTAssertEqual(RobotsRules.forFailedFetch(status: nil), .disallowAll)
        XCTAssertFalse(RobotsRules.disallowAll.allows(pathAndQuery: "/"))
    }

    func testWildcardMatching() {
        let rows: [(String, String, Bool, UInt)] = [
            ("/a", "/a", true, #line), ("/a", "/ab", true, #line), ("/a$", "/ab", false, #line),
            ("/a$", "/a", true, #line), ("/*/b", "/x/y/b", true, #line), ("/*b$", "/xb", true, #line),
            ("/*b$", "/xbc", false, #line), ("*", "/", true, #line), ("/a*c*e", "/abcde", true, #line),
            ("/a*c*e", "/abde", false, #line), ("/*.php$", "/x.php?y", false, #line),
        ]
        for (pattern, target, matches, line) in rows {
            XCTAssertEqual(RobotsRules.matches(pattern, target), matches, "\(pattern) \(target)", line: line)
        }
    }
}
