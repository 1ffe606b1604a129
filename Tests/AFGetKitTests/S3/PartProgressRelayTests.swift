import AFGetProgress
import AFGetSupport
import XCTest

@testable import AFGetKit

/// A multipart upload's parts shown as one file: their bytes summed, acknowledged parts kept,
/// a continue's bar starting where the earlier run left it, retries naming their part, and
/// the requests that are no part (id 0) showing no bytes.
final class PartProgressRelayTests: XCTestCase {
    private final class Events: Sendable {
        private let events = PthreadMutex<[ItemEvent]>([])
        func append(_ event: ItemEvent) { events.withLock { $0.append(event) } }
        var all: [ItemEvent] { events.withLock { $0 } }
    }

    private final class Recorder: ProgressRenderer {
        let events: Events
        init(_ events: Events) { self.events = events }
        func handle(_ event: ItemEvent) { events.append(event) }
        func finish() {}
    }

    private let file = ItemInfo(id: 3, url: "s3://b/big.bin", path: "big.bin")

    private func part(_ number: Int) -> ItemInfo { ItemInfo(id: number, url: file.url, path: file.path) }

    func testPartsAddUpToTheFile() {
        let events = Events()
        let relay = SharedRenderer(
            PartProgressRelay(target: SharedRenderer(Recorder(events)), file: file, total: 100, acknowledged: 40))
        relay.handle(.queued(part(0)))
        relay.handle(.progress(part(0), bytes: 0, total: 0, speed: 0))  // CreateMultipartUpload: no bytes of the file
        relay.handle(.progress(part(3), bytes: 10, total: 20, speed: 0))
        relay.handle(.progress(part(4), bytes: 5, total: 20, speed: 0))
        relay.handle(.done(part(3), bytes: 20, transferred: 20, seconds: 0, sha256: nil))
        relay.handle(.progress(part(4), bytes: 15, total: 20, speed: 0))
        let failure = TransferFailure(.response(.httpStatus(503, phrase: "Slow Down")))
        relay.handle(.retrying(part(4), attempt: 1, delay: 1, failure: failure))
        relay.handle(.progress(part(4), bytes: 2, total: 20, speed: 0))  // its next attempt, from its start

        let shown = events.all
        guard case .started(let info, let total, let offset)? = shown.first else { return XCTFail("\(shown)") }
        XCTAssertEqual(info, file)
        XCTAssertEqual(total, 100)
        XCTAssertEqual(offset, 40, "a continue's bar starts at the parts already in the store")
        let bytes = shown.compactMap { event -> Int64? in
            if case .progress(let info, let bytes, let total, _) = event, info == file, total == 100 { return bytes }
            return nil
        }
        XCTAssertEqual(bytes, [50, 55, 75, 62])
        let retries = shown.compactMap { event -> String? in
            if case .retrying(let info, _, _, let failure) = event, info == file { return failure.message }
            return nil
        }
        XCTAssertEqual(retries, ["part 4: HTTP 503 Slow Down"])
        XCTAssertFalse(shown.contains { if case .queued = $0 { true } else { false } }, "the runner says queued")
    }
}
