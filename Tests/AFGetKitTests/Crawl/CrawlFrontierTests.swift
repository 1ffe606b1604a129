@testable import AFGetKit
import AFGetProgress
import AFGetSupport
import Foundation
import XCTest

/// The frontier driven as the driver will drive it, each item "fetched" from a table of
/// answers written to the item's path: no sockets, the files and the crawl's rules real.
final class CrawlFrontierTests: XCTestCase {
    private struct Answer {
        var status = 200
        var type: String? = "text/html"
        var body = ""
        var redirectedTo: String?
    }

    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "crawl-frontier-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private let site: [String: Answer] = [
        "http://h/robots.txt": Answer(type: "text/plain", body: "User-agent: *\nDisallow: /pub/data/secret/\n"),
        "http://h/pub/data/": Answer(
            body: """
                <html><head><title>Index of /pub/data/</title></head><body><pre>
                <a href="?C=M;O=D">Last modified</a> <a href="/pub/">Parent Directory</a>
                <a href="a.txt">a.txt</a> <a href="sub/">sub/</a> <a href="secret/">secret/</a>
                <a href="page.html">page</a> <a href="a.txt#again">again</a> <a href="http://other/x">x</a>
                </pre></body></html>
                """),
        "http://h/pub/data/a.txt": Answer(type: "text/plain", body: "a"),
        "http://h/pub/data/sub/": Answer(
            body: "<title>Index of /pub/data/sub/</title><a href=\"../\">up</a><a href=\"b.txt\">b</a>"),
        "http://h/pub/data/sub/b.txt": Answer(type: "text/plain", body: "b"),
        "http://h/pub/data/page.html": Answer(
            body: """
                <link rel=stylesheet href="/static/site.css"><a href="moved">moved</a>
                <a href="../../elsewhere.html">up</a><a href="sub/">again</a>
                """),
        "http://h/static/site.css": Answer(type: "text/css", body: "body { background: url(bg.png) }"),
        "http://h/static/bg.png": Answer(type: "image/png", body: "png"),
        "http://h/pub/data/moved": Answer(type: "text/plain", body: "target", redirectedTo: "http://h/pub/data/target.txt"),
        "http://h/pub/data/target.txt": Answer(type: "text/plain", body: "never asked: the redirect brought it"),
    ]

    /// Runs the crawl to its end, `concurrently` items at a time; returns the URLs asked for in
    /// order and the frontier.
    private func crawl(
        _ settings: CrawlSettings, starts: [String] = ["http://h/pub/data/"], site: [String: Answer]? = nil,
        concurrently: Int = 3
    ) throws -> (asked: [String], frontier: CrawlFrontier) {
        let site = site ?? self.site
        var settings = settings
        settings.layout.directory = directory
        let frontier = try CrawlFrontier(
            settings: settings, starts: starts, firstIndex: 0, queue: SpillQueue(inMemory: 2, directory: directory))
        var asked: [String] = []
        var inFlight: [DownloadItem] = []
        while true {
            while inFlight.count < concurrently, case .item(let item) = try frontier.next() {
                inFlight.append(item)
                asked.append(item.url)
            }
            guard !inFlight.isEmpty else { break }
            try frontier.ended(fetch(inFlight.removeFirst(), from: site))
        }
        XCTAssertEqual(try frontier.next(), .finished)
        XCTAssertTrue(frontier.isFinished)
        return (asked, frontier)
    }

    private func fetch(_ item: DownloadItem, from site: [String: Answer]) throws -> CrawlEnding {
        guard case .path(let path) = item.output else { throw XCTSkip("no path") }
        var record = ItemRecord(info: ItemInfo(id: item.index, url: item.url, path: path))
        let answer = site[item.url] ?? Answer(status: 404, type: "text/html", body: "not found")
        record.httpStatus = answer.status
        guard answer.status == 200 else {
            record.outcome = .failed(
                ItemFailure(item: item.url, TransferFailure(.response(.httpStatus(answer.status, phrase: "Not Found")))))
            return CrawlEnding(record: record, contentType: answer.type)
        }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(answer.body.utf8).write(to: URL(fileURLWithPath: path))
        record.outcome = .done(transferred: Int64(answer.body.utf8.count))
        return CrawlEnding(record: record, contentType: answer.type, finalURL: answer.redirectedTo)
    }

    func testACrawlFetchesEachURLInScopeOnce() throws {
        let (asked, frontier) = try crawl(CrawlSettings())
        XCTAssertEqual(
            asked,
            [
                "http://h/robots.txt", "http://h/pub/data/", "http://h/pub/data/a.txt", "http://h/pub/data/sub/",
                "http://h/pub/data/page.html", "http://h/pub/data/sub/b.txt", "http://h/static/site.css",
                "http://h/pub/data/moved", "http://h/elsewhere.html", "http://h/static/bg.png",
            ])
        XCTAssertEqual(frontier.tally.skipped, [.listingNavigation: 2, .robots: 1, .otherHost: 1])
        XCTAssertEqual(frontier.tally.pagesRead, 4, "three pages and a style sheet")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/h/pub/data/sub/index.html"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/h/robots.txt"))
    }

    func testNoParentLevelsAndNamesWithTheLayout() throws {
        var settings = CrawlSettings()
        settings.noParent = true
        settings.level = 1
        settings.reject = ["index.html*"]
        settings.layout.hostDirectories = false
        settings.layout.cutDirectories = 2
        let (asked, frontier) = try crawl(settings)
        XCTAssertEqual(
            asked,
            [
                "http://h/robots.txt", "http://h/pub/data/", "http://h/pub/data/a.txt", "http://h/pub/data/sub/",
                "http://h/pub/data/page.html",
            ])
        XCTAssertEqual(frontier.tally.skipped[.aboveStart], nil, "the parent is a listing's: navigation")
        XCTAssertEqual(frontier.tally.skipped[.tooDeep], 4, "sub/b.txt, site.css, moved and elsewhere.html are level 2")
        XCTAssertEqual(frontier.tally.removedAfterReading, 2, "the two listings, named index.html")
        let kept = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { !$0.hasPrefix("afget-crawl") }
        XCTAssertEqual(Set(kept), ["robots.txt", "a.txt", "sub", "page.html"])
    }

    func testRobotsOffAndAMissingRobotsTxt() throws {
        var settings = CrawlSettings()
        settings.obeysRobots = false
        let (asked, _) = try crawl(settings)
        XCTAssertFalse(asked.contains("http://h/robots.txt"))
        XCTAssertTrue(asked.contains("http://h/pub/data/secret/"))

        var site = self.site
        site["http://h/robots.txt"] = nil
        let (missing, frontier) = try crawl(CrawlSettings(), site: site)
        XCTAssertTrue(missing.contains("http://h/pub/data/secret/"), "a 404 allows everything")
        XCTAssertNil(frontier.tally.skipped[.robots])
    }

    func testUnreachableRobotsTxtAllowsOnlyTheStart() throws {
        var site = self.site
        site["http://h/robots.txt"] = Answer(status: 503)
        let (asked, frontier) = try crawl(CrawlSettings(), site: site)
        XCTAssertEqual(asked, ["http://h/robots.txt", "http://h/pub/data/"])
        XCTAssertEqual(frontier.tally.skipped[.robots], 4)
    }

    func testNofollowKeepsRequisites() throws {
        let site: [String: Answer] = [
            "http://h/": Answer(
                body: "<meta name=robots content=nofollow><a href=a.html>a</a><img src=i.png><a href=b.html>b</a>"),
            "http://h/i.png": Answer(type: "image/png", body: "i"),
        ]
        let (asked, frontier) = try crawl(CrawlSettings(), starts: ["http://h/"], site: site)
        XCTAssertEqual(asked, ["http://h/robots.txt", "http://h/", "http://h/i.png"])
        XCTAssertEqual(frontier.tally.skipped[.nofollow], 2)
    }

    func testTwoURLsForOneFileAreNumbered() throws {
        let site: [String: Answer] = [
            "http://h/": Answer(body: "<a href=a/x.txt>1</a><a href=b/x.txt>2</a>"),
            "http://h/a/x.txt": Answer(type: "text/plain", body: "1"),
            "http://h/b/x.txt": Answer(type: "text/plain", body: "2"),
        ]
        var settings = CrawlSettings()
        settings.layout.directories = false
        settings.obeysRobots = false
        _ = try crawl(settings, starts: ["http://h/"], site: site)
        XCTAssertEqual(try String(contentsOfFile: directory + "/x.txt", encoding: .utf8), "1")
        XCTAssertEqual(try String(contentsOfFile: directory + "/x.1.txt", encoding: .utf8), "2")
    }

    func testAFileLeftByAnEarlierRunIsReadFromDisk() throws {
        var settings = CrawlSettings()
        settings.obeysRobots = false
        settings.layout.directory = directory
        let frontier = try CrawlFrontier(settings: settings, starts: ["http://h/"], firstIndex: 7)
        guard case .item(let start) = try frontier.next(), case .path(let path) = start.output else {
            return XCTFail("no start item")
        }
        XCTAssertEqual(start.index, 7)
        try FileManager.default.createDirectory(atPath: directory + "/h", withIntermediateDirectories: true)
        try Data("<!DOCTYPE html><a href=next.html>n</a>".utf8).write(to: URL(fileURLWithPath: path))
        var record = ItemRecord(info: ItemInfo(id: start.index, url: start.url, path: path))
        record.outcome = .skipped
        XCTAssertEqual(try frontier.ended(CrawlEnding(record: record)), .page)
        guard case .item(let next) = try frontier.next() else { return XCTFail("no link read") }
        XCTAssertEqual(next.url, "http://h/next.html")
        XCTAssertEqual(next.index, 8)
    }

    func testRedirectsAreJudgedByTheFrontier() throws {
        var settings = CrawlSettings()
        settings.noParent = true
        let frontier = try CrawlFrontier(settings: settings, starts: ["http://h/docs/"], firstIndex: 0)
        guard case .item(let robots) = try frontier.next(), case .item(let start) = try frontier.next() else {
            return XCTFail("no items")
        }
        XCTAssertEqual(frontier.flight(ofItem: robots.index)?.role, .robots)
        // What the crawl tells the curl thread of each item, judged by the same rules there.
        let scope = try CrawlScope(settings: settings, starts: [try XCTUnwrap(CrawlURL.normalized("http://h/docs/"))])
        func admits(_ index: Int, _ target: String) throws -> Bool {
            scope.admitsRedirect(of: try XCTUnwrap(frontier.flight(ofItem: index)), to: target)
        }
        XCTAssertTrue(try admits(robots.index, "http://h/robots-moved.txt"))
        XCTAssertFalse(try admits(robots.index, "http://mirror/robots.txt"))
        XCTAssertTrue(try admits(start.index, "http://h/docs/index.html"))
        XCTAssertFalse(try admits(start.index, "http://mirror/docs/"))
        XCTAssertFalse(try admits(start.index, "http://h/"))
    }

    func testABadStartURLIsRefused() {
        XCTAssertThrowsError(try CrawlFrontier(settings: CrawlSettings(), starts: ["ftp://h/x"], firstIndex: 0))
    }
}
