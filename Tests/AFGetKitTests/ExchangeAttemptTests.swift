@testable import AFGetKit
@testable import AFGetProgress
@testable import AFGetRequest
@testable import AFGetSession
@testable import AFGetSupport
import XCTest

/// An exchange's attempt without a socket: what each event of its task tells the renderer, and
/// how the attempt ends.
final class ExchangeAttemptTests: XCTestCase {
    private let task = TaskID(rawValue: 7)
    private let info = ItemInfo(id: 0, url: "http://h/x", path: "x")

    private func progress(received: Int64 = 0, expected: Int64? = nil, sent: Int64 = 0, toSend: Int64? = nil)
        -> TransferProgress
    {
        var progress = TransferProgress()
        progress.received = received
        progress.expected = expected
        progress.sent = sent
        progress.expectedToSend = toSend
        return progress
    }

    /// A response's head starts the bar with its length; progress counts bytes received.
    func testAResponseStartsAtItsHeadAndCountsWhatArrives() {
        var attempt = ExchangeAttempt(info: info, sending: false, verbose: false)
        let head = ResponseHead(status: 200, headers: [(name: "Content-Length", value: "10")])
        XCTAssertEqual(attempt.take(.started(task, head), at: 1).said, [.started(info, total: 10, offset: nil)])
        let said = attempt.take(.progress(task, progress(received: 4, expected: 10)), at: 2).said
        guard case .progress(info, bytes: 4, total: 10, _)? = said.first, said.count == 1 else {
            return XCTFail("one progress event, counting received bytes: \(said)")
        }
        let response = TaskResponse(head: head, finalURL: "http://h/x", progress: progress(received: 10), body: [])
        XCTAssertEqual(attempt.take(.completed(task, response), at: 3).ending?.response?.head.status, 200)
    }

    /// An upload's bar starts with its first progress and counts bytes sent, whatever the
    /// response's head says.
    func testAnUploadCountsWhatIsSent() {
        var attempt = ExchangeAttempt(info: info, sending: true, verbose: false)
        let head = ResponseHead(status: 100, headers: [])
        XCTAssertEqual(attempt.take(.started(task, head), at: 1).said, [])
        let said = attempt.take(.progress(task, progress(received: 1, sent: 6, toSend: 20)), at: 2).said
        XCTAssertEqual(said.first, .started(info, total: 20, offset: nil))
        guard case .progress(info, bytes: 6, total: 20, _)? = said.last, said.count == 2 else {
            return XCTFail("started, then progress counting sent bytes: \(said)")
        }
    }

    /// The last event ends the attempt: a failure as it is, a cancel as "canceled".
    func testTheTasksLastEventEndsTheAttempt() {
        var attempt = ExchangeAttempt(info: info, sending: false, verbose: false)
        let reset = TransferFailure(
            .connection(.curl(code: 56, said: "Connection reset by peer", failureClass: .network)), transient: true)
        XCTAssertEqual(attempt.take(.failed(task, reset, TransferProgress()), at: 1).ending?.failure, reset)
        XCTAssertEqual(attempt.take(.canceled(task, nil, TransferProgress()), at: 2).ending?.failure?.message, "canceled")
        XCTAssertNil(attempt.take(.suspended(task), at: 3).ending)
    }
}
