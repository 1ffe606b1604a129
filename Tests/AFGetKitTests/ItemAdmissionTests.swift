@testable import AFGetKit
import XCTest

final class ItemAdmissionTests: XCTestCase {
    /// -j 2 with a gate: two transfers, two more waiting at the gate once the first two have
    /// posted their requests, and one finished file moving into place beyond those.
    func testTransfersThenTheGateThenFilesMovingIntoPlace() {
        var admission = ItemAdmission(concurrency: 2, waitingAtGate: 2, extraCommits: 1)
        XCTAssertTrue(admission.mayStartAnother())
        admission.start()
        admission.start()
        XCTAssertFalse(admission.mayStartAnother(), "the gate's waiting items start after the first two posted")

        admission.requestPosted()
        XCTAssertFalse(admission.mayStartAnother(), "one of the first two has not posted yet")
        admission.requestPosted()
        XCTAssertTrue(admission.mayStartAnother())
        XCTAssertFalse(admission.needsPostReports, "from now on a posted request changes nothing")
        admission.start()
        admission.start()
        XCTAssertFalse(admission.mayStartAnother(), "two transferring and two waiting at the gate")

        // A transfer ends while its file is moved into place: one more may wait at the gate.
        admission.transferEnded()
        XCTAssertTrue(admission.mayStartAnother())
        admission.start()
        admission.transferEnded()
        XCTAssertFalse(
            admission.mayStartAnother(), "five under way is the most: two transfers, two at the gate, one moving into place")

        admission.finished(requestWasUnposted: false, transferWasOpen: false)
        XCTAssertTrue(admission.mayStartAnother())
        XCTAssertEqual(admission.running, 4)
    }

    /// An item that ended without posting a request (skipped, or failed before any) frees its
    /// place at once.
    func testAnItemEndingBeforeItsRequestFreesItsPlace() {
        var admission = ItemAdmission(concurrency: 1, waitingAtGate: 0, extraCommits: 4)
        admission.start()
        XCTAssertFalse(admission.mayStartAnother())
        admission.finished(requestWasUnposted: true, transferWasOpen: true)
        XCTAssertTrue(admission.isIdle)
        XCTAssertTrue(admission.mayStartAnother())
    }

    /// `-j` is decided here alone: one-connection batches get a gate of `-j` places with as many
    /// requests waiting at it; `-s` and `--fail-fast` batches get none.
    func testTheRunsPlacesComeFromItsSettings() throws {
        let rows: [(settings: DownloadSettings, gate: Int?, waiting: Int)] = [
            (DownloadSettings(concurrency: 8), 8, 8),
            (DownloadSettings(concurrency: 8, split: 4), nil, 0),
            (DownloadSettings(concurrency: 3, failsFast: true), nil, 0),
        ]
        for row in rows {
            let admission = try ItemAdmission(for: row.settings)
            XCTAssertEqual(admission.concurrency, row.settings.concurrency)
            XCTAssertEqual(admission.gate?.limit, row.gate)
            XCTAssertEqual(admission.waitingAtGate, row.waiting)
            XCTAssertEqual(admission.itemsAhead, row.settings.concurrency + row.waiting)
            XCTAssertNil(admission.narrowedByOpenFileLimit)
        }
    }
}

extension ItemAdmission {
    /// Starts an item as the runner does: reporting its post only while that counts.
    fileprivate mutating func start() {
        started(reportingPost: needsPostReports)
    }
}
