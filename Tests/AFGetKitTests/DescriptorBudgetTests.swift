@testable import AFGetSupport
@testable import AFGetKit
import XCTest

/// How many transfers and waiting commits fit in the limit on open files.
final class DescriptorBudgetTests: XCTestCase {
    func testAUsualLimitHoldsWhatIsAsked() throws {
        let budget = try DescriptorBudget(asked: 8, connectionsEach: 1, gated: true, limit: 1024, openNow: 12)
        XCTAssertEqual(budget.transfers, 8)
        XCTAssertEqual(budget.extraCommits, 251, "a quarter of the 1006 free")
        XCTAssertEqual(budget.limit, 1024)
    }

    func testALowLimitHoldsFewerTransfersAndCommits() throws {
        // 40 - 12 open - 6 spare = 22 free: 5 for commits, then 17 / 5 per gated transfer.
        let budget = try DescriptorBudget(asked: 8, connectionsEach: 1, gated: true, limit: 40, openNow: 12)
        XCTAssertEqual(budget.transfers, 3)
        XCTAssertEqual(budget.extraCommits, 5)
        // Segments take a socket each: 22 free, 5 for commits, 17 / (8 + 3).
        let split = try DescriptorBudget(asked: 4, connectionsEach: 8, gated: false, limit: 40, openNow: 12)
        XCTAssertEqual(split.transfers, 1)
        XCTAssertEqual(split.extraCommits, 5)
    }

    func testOneTransferIsKeptWhenCommitsWouldCrowdItOut() throws {
        // 6 free: commits would take 1, leaving less than one transfer's 5.
        let budget = try DescriptorBudget(asked: 8, connectionsEach: 1, gated: true, limit: 24, openNow: 12)
        XCTAssertEqual(budget.transfers, 1)
        XCTAssertEqual(budget.extraCommits, 1)
    }

    func testNoRoomForOneTransferIsRefused() {
        XCTAssertThrowsError(try DescriptorBudget(asked: 1, connectionsEach: 1, gated: false, limit: 12, openNow: 10)) { error in
            let failure = error as? TransferFailure
            XCTAssertEqual(failure?.kind, .localFile)
            XCTAssertEqual(
                failure?.message, "too few files may be open (ulimit -n 12): 10 are open already and a transfer needs 10 more")
        }
    }
}
