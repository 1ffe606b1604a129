import AFGetRequest
import CCurl
import CurlCore
import Glibc
import XCTest

@testable import AFGetSession
@testable import AFGetSupport

/// Which of libcurl's failures are the host's (a batch gives a host up after 3 of them in a row)
/// and the code each carries into the report, without a socket.
final class FailureReasonTests: XCTestCase {
    func testLibcurlsCodesThatAreTheHostsOwn() {
        let rows: [(curl: CURLcode, requestUnsent: Bool, expected: FailureReason?, code: String?)] = [
            (CURLE_COULDNT_RESOLVE_HOST, true, .connection(.hostNotFound), "host-not-found"),
            (CURLE_COULDNT_CONNECT, true, .connection(.connectFailed), "connect-failed"),
            (CURLE_OPERATION_TIMEDOUT, true, .connection(.connectTimeout), "connect-timeout"),
            // A timeout after the request went out says nothing of the host being down.
            (CURLE_OPERATION_TIMEDOUT, false, nil, nil),
            (CURLE_RECV_ERROR, false, nil, nil),
            (CURLE_PEER_FAILED_VERIFICATION, true, nil, nil),
            (CURLE_REMOTE_FILE_NOT_FOUND, false, .response(.noSuchFile), "no-such-file"),
            (CURLE_REMOTE_ACCESS_DENIED, false, .response(.accessDenied), "access-denied"),
            (CURLE_LOGIN_DENIED, false, .response(.loginRefused), "login-refused"),
        ]
        for row in rows {
            let reason = CurlFailureClassifier.reason(of: row.curl, requestUnsent: row.requestUnsent)
            XCTAssertEqual(reason, row.expected, "code \(row.curl.rawValue)")
            XCTAssertEqual(reason?.code, row.code, "code \(row.curl.rawValue)")
            XCTAssertEqual(
                reason?.isHostDown ?? false,
                [.connection(.hostNotFound), .connection(.connectFailed), .connection(.connectTimeout)].contains(row.expected),
                "code \(row.curl.rawValue)")
        }
    }

    /// libcurl (7.88) reports every FTP 421 as CURLE_OPERATION_TIMEDOUT: one in place of the
    /// greeting (no request sent yet) is a server turning the connection away (vsftpd
    /// `max_per_ip`), which a split download takes as a 503; one after the login is an idle
    /// session's end, a timeout; and a 530 is a refused login, never a busy server.
    func testAnFTPServersTurnAwayIsToldFromATimeoutAndARefusedLogin() {
        let rows: [(curl: CURLcode, reply: Int, requestUnsent: Bool, reason: FailureReason?, exit: Int32, transient: Bool)] = [
            (CURLE_OPERATION_TIMEDOUT, 421, true, .connection(.turnedAway), 4, true),
            (CURLE_OPERATION_TIMEDOUT, 421, false, .said(.network, errno: nil), 4, true),
            (CURLE_OPERATION_TIMEDOUT, 0, true, .connection(.connectTimeout), 4, true),
            (CURLE_LOGIN_DENIED, 530, true, .response(.loginRefused), 6, false),
        ]
        for row in rows {
            let failure = CurlFailureClassifier.failure(
                for: CurlError(code: row.curl), host: "127.0.0.1", readingHeaders: true, limits: ResponseLimits(),
                requestUnsent: row.requestUnsent, ftpReply: row.reply)
            let name = "code \(row.curl.rawValue), reply \(row.reply)"
            XCTAssertEqual(failure.reason, row.reason, name)
            XCTAssertEqual(failure.exitCode, row.exit, name)
            XCTAssertEqual(failure.isTransient, row.transient, name)
        }
        XCTAssertEqual(FailureReason.connection(.turnedAway).code, "turned-away")
        XCTAssertFalse(FailureReason.connection(.turnedAway).isHostDown, "the host answered")
    }

    /// The exit status comes from the reason where there is one, whatever class the failure
    /// was made with: the table of afget(1) in code.
    func testEveryReasonDecidesItsExitStatus() {
        let rows: [(reason: FailureReason, exit: Int32)] = [
            (.connection(.hostNotFound), 4), (.connection(.connectFailed), 4), (.connection(.connectTimeout), 4),
            (.connection(.hostGivenUp(host: "http://h:80")), 4),
            (.connection(.timeLimit), 4), (.connection(.stalled), 4), (.response(.bodyShort(received: 1, expected: 2)), 4),
            (.response(.httpStatus(404)), 8), (.response(.httpStatus(503)), 8), (.response(.httpStatus(401)), 8),
            (.response(.noSuchFile), 8), (.response(.accessDenied), 8),
            (.response(.credentialsRefused(status: 401)), 6), (.response(.credentialsRefused(status: 407)), 6),
            (.response(.loginRefused), 6),
            (.connection(.turnedAway), 4),
            (.response(.tooLarge(limit: 10)), 7), (.resume(.entityTagChanged(from: "a", to: "b")), 9),
            (.checksum(.notInSums(sumsFile: "SUMS")), 10),
            (.file(.cannot(.write, path: "f", errno: ENOSPC)), 3),
        ]
        for row in rows {
            XCTAssertEqual(TransferFailure(row.reason, "words").exitCode, row.exit, "\(row.reason)")
            // Made with another class, the reason still decides.
            XCTAssertEqual(TransferFailure(.internalError, "words", reason: row.reason).exitCode, row.exit, "\(row.reason)")
        }
        XCTAssertEqual(TransferFailure(.tls, "no reason").exitCode, 5, "without a reason the class decides")
        XCTAssertEqual(TransferFailure(.internalError, "full", systemErrorCode: ENOSPC).reason.code, "no-space")
        XCTAssertEqual(TransferFailure(.internalError, "full", systemErrorCode: ENOSPC).exitCode, 3)
        let refused = ResponseHead(status: 401, headers: []).failure(sentCredentials: true)
        XCTAssertEqual(refused.reason.code, "credentials-refused")
        XCTAssertEqual(refused.exitCode, 6)
        XCTAssertEqual(ResponseHead(status: 401, headers: []).failure(sentCredentials: false).reason.code, "http-status")
    }

    func testAFailureToldInOtherWordsKeepsItsReason() {
        let refused = TransferFailure(.network, "Failed to connect", transient: true, reason: .connection(.connectFailed))
        let retried = refused.reworded("Failed to connect (after 6 attempts)")
        XCTAssertEqual(retried.reason, .connection(.connectFailed))
        XCTAssertTrue(retried.isTransient)
        XCTAssertEqual(retried.kind, .network)
        XCTAssertEqual(FailureReason.connection(.hostGivenUp(host: "http://h:80")).code, "host-given-up")
        XCTAssertFalse(FailureReason.connection(.hostGivenUp(host: "http://h:80")).isHostDown, "never counted as a new failure")
    }

    func testTheServersWaitIsRetryAfterElseItsRateLimitReset() {
        let rows: [(status: Int, headers: [(String, String)], wait: String?)] = [
            (429, [("Retry-After", "7")], "7"),
            (429, [("Retry-After", "7"), ("RateLimit-Reset", "30")], "7"),
            (429, [("RateLimit-Reset", "30")], "30"),
            (503, [("RateLimit", "\"default\";r=0;t=12")], "12"),
            (429, [("RateLimit", "limit=100, remaining=0, reset=45")], "45"),
            (429, [("RateLimit", "limit=100, remaining=0")], nil),
            (429, [("RateLimit-Reset", "-5")], nil),
            (429, [("RateLimit", "t=soon")], nil),
            // A quota that resets says nothing of a 200 or a 404.
            (200, [("RateLimit-Reset", "30")], nil),
            (404, [("RateLimit", "\"default\";r=0;t=12")], nil),
        ]
        for row in rows {
            let head = ResponseHead(status: row.status, headers: row.headers.map { (name: $0.0, value: $0.1) })
            XCTAssertEqual(head.serverWait, row.wait, "\(row.status) \(row.headers)")
        }
    }
}
