@testable import AFGetKit
import Foundation
import XCTest

final class SpillQueueTests: XCTestCase {
    func testOrderIsKeptAcrossTheFile() throws {
        let queue = SpillQueue(inMemory: 3)
        var taken: [String] = []
        let long = String(repeating: "x", count: 300 << 10)
        // Added and taken in turns, so the head, the file and the tail all hold links at once.
        for round in 0..<5 {
            for number in 0..<7 {
                let url = number == 3 && round == 2 ? "http://h/\(long)" : "http://h/\(round)/\(number)"
                try queue.append(
                    QueuedLink(url: url, depth: number, kind: number % 2 == 0 ? .page : .requisite, keep: round != 1))
            }
            for _ in 0..<4 { try queue.popFirst().map { taken.append($0.url) } }
        }
        while let link = try queue.popFirst() { taken.append(link.url) }
        let expected = (0..<5).flatMap { round in
            (0..<7).map { $0 == 3 && round == 2 ? "http://h/\(long)" : "http://h/\(round)/\($0)" }
        }
        XCTAssertEqual(taken, expected)
        XCTAssertTrue(queue.isEmpty)
    }

    func testALinkComesBackAsItWent() throws {
        let queue = SpillQueue(inMemory: 1)
        let link = QueuedLink(url: "http://h/é?q=1", depth: 12, kind: .requisite, keep: false)
        try queue.append(link)
        try queue.append(QueuedLink(url: "http://h/2", depth: 0, kind: .page, keep: true))
        XCTAssertEqual(try queue.popFirst(), link)
    }

    /// Issue 54, point 7: the URLs seen and the frontier of a crawl of a million pages stay
    /// under 128 MiB. A million keys go into the seen set as the frontier keeps them, and a
    /// million links of 60 bytes into the queue; the resident memory grown is measured.
    func testAMillionURLsStayBounded() throws {
        let before = residentBytes()
        var seen = Set<UInt64>()
        let queue = SpillQueue()
        for number in 0..<1_000_000 {
            let url = "http://files.example.org/pub/data/dir\(number % 1000)/file-\(number).iso"
            seen.insert(StableHash.of(url))
            try queue.append(QueuedLink(url: url, depth: 3, kind: .page, keep: true))
        }
        let grown = residentBytes() - before
        XCTAssertEqual(seen.count, 1_000_000, "no two of these URLs share a key")
        XCTAssertEqual(queue.count, 1_000_000)
        XCTAssertLessThan(grown, 128 << 20, "grew \(grown >> 20) MiB")
        print("crawl memory: 1 000 000 URLs seen and queued, resident memory grew \(grown >> 20) MiB")
    }

    private func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
