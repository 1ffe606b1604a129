@testable import AFGetSession
@testable import AFGetSupport
import XCTest

/// How a finished transfer ends, one row per rule of precedence, without a socket: what was
/// known of it, and the outcome.
final class TransferOutcomeTests: XCTestCase {
    private static let limit = TransferFailure(.response(.tooLarge(limit: 10)))
    private static let disk = fileFailure(.write, "x.bin", errno: ENOSPC)
    private static let reset = TransferFailure(
        .connection(.curl(code: 56, said: "Connection reset by peer", failureClass: .network)), transient: true)
    private static let truncated = TransferFailure(.response(.undecodable(.truncated(coding: "gzip"))), discardsData: true)

    private func ending(_ change: (inout TransferEnding) -> Void) -> TransferEnding {
        var ending = TransferEnding()
        change(&ending)
        return ending
    }

    func testEachFactDecidesOnlyWhenTheOnesBeforeItDidNot() {
        let rows: [(ending: TransferEnding, expected: TransferOutcome, why: String)] = [
            (ending { _ in }, .completed, "a whole exchange"),
            (
                ending {
                    $0.wasStopped = true; $0.curlFailure = Self.reset
                }, .canceled, "the run's stop comes first"
            ),
            (
                ending {
                    $0.consumerHasEnough = true; $0.curlFailure = Self.reset
                }, .completed,
                "a segment that ended itself at its end is whole, whatever libcurl says of the cut"
            ),
            (
                ending {
                    $0.consumerHasEnough = true; $0.flushFailure = Self.disk
                }, .failed(Self.disk),
                "but not when its last bytes could not be written"
            ),
            (
                ending {
                    $0.abortReason = Self.limit; $0.flushFailure = Self.disk; $0.curlFailure = Self.reset
                },
                .failed(Self.limit), "this side's own reason names the cause, not the abort it caused"
            ),
            (
                ending {
                    $0.flushFailure = Self.disk; $0.curlFailure = Self.reset
                }, .failed(Self.disk), "then the file"
            ),
            (
                ending {
                    $0.refusedHTTP1 = true; $0.curlFailure = Self.reset
                }, .resendOverHTTP2,
                "nothing back over HTTP/1.1: sent again over HTTP/2, not failed"
            ),
            (
                ending {
                    $0.curlFailure = Self.reset; $0.redirectTarget = "/x"
                }, .failed(Self.reset), "then libcurl's failure"
            ),
            (
                ending {
                    $0.redirectTarget = "/next"; $0.bodyEnd = { Self.truncated }
                }, .redirect(to: "/next"),
                "a redirect's own body is not read to its end"
            ),
            (ending { $0.bodyEnd = { Self.truncated } }, .failed(Self.truncated), "last, the body's end"),
        ]
        for row in rows {
            XCTAssertEqual(row.ending.outcome, row.expected, row.why)
        }
    }

    func testTheBodysEndIsReadOnlyWhenNothingElseDecided() {
        var asked = 0
        var ending = TransferEnding()
        ending.curlFailure = Self.reset
        ending.bodyEnd = {
            asked += 1
            return nil
        }
        _ = ending.outcome
        XCTAssertEqual(asked, 0, "ending the decoder has effects: not for a transfer that failed")
        ending.curlFailure = nil
        XCTAssertEqual(ending.outcome, .completed)
        XCTAssertEqual(asked, 1)
    }
}
