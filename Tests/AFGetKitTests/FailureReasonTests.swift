import CCurl
import XCTest

@testable import AFGetSession
@testable import AFGetSupport

/// Which of libcurl's failures are the host's (a batch gives a host up after 3 of them in a row)
/// and the code each carries into the report, without a socket.
final class FailureReasonTests: XCTestCase {
    func testLibcurlsCodesThatAreTheHostsOwn() {
        let rows: [(curl: CURLcode, requestUnsent: Bool, expected: FailureReason, code: String?)] = [
            (CURLE_COULDNT_RESOLVE_HOST, true, .hostNotFound, "host-not-found"),
            (CURLE_COULDNT_CONNECT, true, .connectFailed, "connect-failed"),
            (CURLE_OPERATION_TIMEDOUT, true, .connectTimeout, "connect-timeout"),
            // A timeout after the request went out says nothing of the host being down.
            (CURLE_OPERATION_TIMEDOUT, false, .unspecified, nil),
            (CURLE_RECV_ERROR, false, .unspecified, nil),
            (CURLE_PEER_FAILED_VERIFICATION, true, .unspecified, nil),
        ]
        for row in rows {
            let reason = CurlFailureClassifier.reason(of: row.curl, requestUnsent: row.requestUnsent)
            XCTAssertEqual(reason, row.expected, "code \(row.curl.rawValue)")
            XCTAssertEqual(reason.code, row.code, "code \(row.curl.rawValue)")
            XCTAssertEqual(reason.isHostDown, row.expected != .unspecified, "code \(row.curl.rawValue)")
        }
    }

    func testAFailureToldInOtherWordsKeepsItsReason() {
        let refused = TransferFailure(.network, "Failed to connect", transient: true, reason: .connectFailed)
        let retried = refused.reworded("Failed to connect (after 6 attempts)")
        XCTAssertEqual(retried.reason, .connectFailed)
        XCTAssertTrue(retried.isTransient)
        XCTAssertEqual(retried.kind, .network)
        XCTAssertEqual(FailureReason.hostGivenUp(host: "http://h:80").code, "host-given-up")
        XCTAssertFalse(FailureReason.hostGivenUp(host: "http://h:80").isHostDown, "never counted as a new failure")
    }
}
