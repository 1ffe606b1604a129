@testable import AFGetKit
import XCTest

/// How many transfers and waiting commits fit in the limit on open files.
final class DescriptorBudgetTests: XCTestCase {
    func testAUsualLimitHoldsWhatIsAsked() throws {
        let budget = try DescriptorBudget(asked: 8, connectionsEach: 1, gated: true, limit: 1024, openNow: 12)
        XCTAssertEqual(budget.transfers, 8)
        XCTAssertEqual(budget.extraCommits, 252, "a quarter of the 1008 free")
        XCTAssertEqual(budget.limit, 1024)
    }

    func testALowLimitHoldsFewerTransfersAndCommits() throws {
        // 40 - 12 open - 4 spare = 24 free: 6 for commits, then 18 / 5 per gated transfer.
        let budget = try DescriptorBudget(asked: 8, connectionsEach: 1, gated: true, limit: 40, openNow: 12)
        XCTAssertEqual(budget.transfers, 3)
        XCTAssertEqual(budget.extraCommits, 6)
        // Segments take a socket each: 24 free, 6 for commits, 18 / (8 + 3).
        let split = try DescriptorBudget(asked: 4, connectionsEach: 8, gated: false, limit: 40, openNow: 12)
        XCTAssertEqual(split.transfers, 1)
        XCTAssertEqual(split.extraCommits, 6)
    }

    func testOneTransferIsKeptWhenCommitsWouldCrowdItOut() throws {
        // 6 free: commits would take 1, leaving less than one transfer's 5.
        let budget = try DescriptorBudget(asked: 8, connectionsEach: 1, gated: true, limit: 22, openNow: 12)
        XCTAssertEqual(budget.transfers, 1)
        XCTAssertEqual(budget.extraCommits, 1)
    }

    func testNoRoomForOneTransferIsRefused() {
        XCTAssertThrowsError(try DescriptorBudget(asked: 1, connectionsEach: 1, gated: false, limit: 12, openNow: 10)) { error in
            let failure = error as? TransferFailure
            XCTAssertEqual(failure?.kind, .localFile)
            XCTAssertEqual(failure?.message, "too few files may be open (ulimit -n 12): 10 are open already and a transfer needs 8 more")
        }
    }
}
