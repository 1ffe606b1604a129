@testable import AFGetKit
import AFGetProgress
import Dispatch
import Foundation
import XCTest

/// The crawl as the driver's source: items taken in blocks with `nextBlock`, the driver woken
/// through `onMore` after `.notYet`, records handed back with `itemEnded`, the crawl thread in
/// between.
final class CrawlTests: XCTestCase {
    func testTheDriversContract() throws {
        let directory = NSTemporaryDirectory() + "crawl-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var settings = CrawlSettings()
        settings.obeysRobots = false
        settings.layout.directory = directory
        let crawl = try Crawl(settings: settings, starts: ["http://h/"], firstIndex: 1)
        let woken = DispatchSemaphore(value: 0)
        crawl.onMore { woken.signal() }
        let pages = ["http://h/": "<a href=a.html>a</a><a href=b.txt>b</a>", "http://h/a.html": "<a href=/>home</a>"]
        var fetched: [String] = []
        var ended = false
        while !ended {
            for next in crawl.nextBlock() {
                switch next {
                case .item(let item):
                    fetched.append(item.url)
                    guard case .path(let path) = item.output else { return XCTFail("no path") }
                    try FileManager.default.createDirectory(
                        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try Data((pages[item.url] ?? "file").utf8).write(to: URL(fileURLWithPath: path))
                    var record = ItemRecord(info: ItemInfo(id: item.index, url: item.url, path: path))
                    record.outcome = .done(transferred: 1)
                    record.contentType = pages[item.url] == nil ? "text/plain" : "text/html"
                    crawl.itemEnded(record)
                case .notYet:
                    XCTAssertEqual(woken.wait(timeout: .now() + 10), .success, "woken when there is more")
                case .end:
                    ended = true
                case .unusable, .notice:
                    XCTFail("nothing unusable here")
                }
            }
        }
        XCTAssertEqual(fetched, ["http://h/", "http://h/a.html", "http://h/b.txt"])
        XCTAssertEqual(crawl.tally.pagesRead, 2)
        var stranger = ItemRecord(info: ItemInfo(id: 99, url: "http://x/", path: "x"))
        stranger.outcome = .skipped
        XCTAssertNil(crawl.ended(CrawlEnding(record: stranger)), "not an item of the crawl")
    }
}
