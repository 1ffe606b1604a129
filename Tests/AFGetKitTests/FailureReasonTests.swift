import AFGetRequest
import CCurl
import CurlCore
import Glibc
import XCTest

@testable import AFGetKit
@testable import AFGetSession
@testable import AFGetSupport

/// Which of libcurl's failures are the host's (a batch gives a host up after 3 of them in a row)
/// and the code each carries into the report, without a socket.
final class FailureReasonTests: XCTestCase {
    func testLibcurlsCodesThatAreTheHostsOwn() {
        let rows: [(curl: CURLcode, requestUnsent: Bool, expected: FailureReason, code: String, hostDown: Bool)] = [
            (CURLE_COULDNT_RESOLVE_HOST, true, .connection(.hostNotFound(said: "said")), "host-not-found", true),
            (CURLE_COULDNT_CONNECT, true, .connection(.connectFailed(said: "said")), "connect-failed", true),
            (CURLE_OPERATION_TIMEDOUT, true, .connection(.connectTimeout(said: "said")), "connect-timeout", true),
            // A timeout after the request went out says nothing of the host being down.
            (
                CURLE_OPERATION_TIMEDOUT, false, .connection(.curl(code: 28, said: "said", failureClass: .network)), "curl-error",
                false
            ),
            (CURLE_RECV_ERROR, false, .connection(.curl(code: 56, said: "said", failureClass: .network)), "curl-error", false),
            (CURLE_PEER_FAILED_VERIFICATION, true, .connection(.tls(host: "", said: "said", curlCode: 60)), "tls", false),
            (CURLE_REMOTE_FILE_NOT_FOUND, false, .response(.noSuchFile(said: "said")), "no-such-file", false),
            (CURLE_REMOTE_ACCESS_DENIED, false, .response(.accessDenied(said: "said")), "access-denied", false),
            (CURLE_LOGIN_DENIED, false, .response(.loginRefused(said: "said")), "login-refused", false),
        ]
        for row in rows {
            let reason = CurlFailureClassifier.reason(of: row.curl, said: "said", requestUnsent: row.requestUnsent)
            XCTAssertEqual(reason, row.expected, "code \(row.curl.rawValue)")
            XCTAssertEqual(reason.code, row.code, "code \(row.curl.rawValue)")
            XCTAssertEqual(reason.isHostDown, row.hostDown, "code \(row.curl.rawValue)")
        }
    }

    /// A connect timeout to a host that has not answered in this run is the host's as any is,
    /// with the same code, but retried once by default, and as often as `--retry N` says.
    func testAConnectTimeoutOnFirstContactIsRetriedLess() {
        let reason = CurlFailureClassifier.reason(
            of: CURLE_OPERATION_TIMEDOUT, said: "said", requestUnsent: true, hostAnswered: false)
        XCTAssertEqual(reason, .connection(.connectTimeoutOnFirstContact(said: "said")))
        XCTAssertEqual(reason.code, "connect-timeout")
        XCTAssertTrue(reason.isHostDown)
        let firstContact = TransferFailure(reason, transient: true)
        let answered = TransferFailure(.connection(.connectTimeout(said: "said")), transient: true)
        XCTAssertEqual(RetryPolicy().retryCount(for: firstContact), 1)
        XCTAssertEqual(RetryPolicy().retryCount(for: answered), 5)
        XCTAssertEqual(RetryPolicy(maxRetries: 3, firstContactTimeoutRetries: 3).retryCount(for: firstContact), 3)
        XCTAssertEqual(RetryPolicy().decision(afterFailedAttempts: 2, of: firstContact, retryAfter: nil, now: 0), .giveUp)
        XCTAssertEqual(RetryPolicy().decision(afterFailedAttempts: 2, of: answered, retryAfter: nil, now: 0), .retry(after: 2))
    }

    /// libcurl (7.88) reports every FTP 421 as CURLE_OPERATION_TIMEDOUT: one in place of the
    /// greeting (no request sent yet) is a server turning the connection away (vsftpd
    /// `max_per_ip`), which a split download takes as a 503; one after the login is an idle
    /// session's end, a timeout; and a 530 is a refused login, never a busy server.
    func testAnFTPServersTurnAwayIsToldFromATimeoutAndARefusedLogin() {
        let rows: [(curl: CURLcode, reply: Int, requestUnsent: Bool, code: String, exit: Int32, transient: Bool)] = [
            (CURLE_OPERATION_TIMEDOUT, 421, true, "turned-away", 4, true),
            (CURLE_OPERATION_TIMEDOUT, 421, false, "curl-error", 4, true),
            (CURLE_OPERATION_TIMEDOUT, 0, true, "connect-timeout", 4, true),
            (CURLE_LOGIN_DENIED, 530, true, "login-refused", 6, false),
        ]
        for row in rows {
            let failure = CurlFailureClassifier.failure(
                for: CurlError(code: row.curl), host: "127.0.0.1", readingHeaders: true, limits: ResponseLimits(),
                requestUnsent: row.requestUnsent, ftpReply: row.reply)
            let name = "code \(row.curl.rawValue), reply \(row.reply)"
            XCTAssertEqual(failure.reason.code, row.code, name)
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
            (.connection(.hostNotFound(said: "")), 4), (.connection(.connectFailed(said: "")), 4),
            (.connection(.connectTimeout(said: "")), 4),
            (.connection(.hostGivenUp(host: "http://h:80", after: .connection(.connectFailed(said: "")), again: false)), 4),
            (.connection(.timeLimit(seconds: 1)), 4), (.connection(.stalled(waiting: .data, seconds: 1)), 4),
            (.response(.bodyShort(received: 1, expected: 2)), 4),
            (.response(.httpStatus(404, phrase: "")), 8), (.response(.httpStatus(503, phrase: "")), 8),
            (.response(.httpStatus(401, phrase: "")), 8),
            (.response(.noSuchFile(said: "")), 8), (.response(.accessDenied(said: "")), 8),
            (.response(.credentialsRefused(status: 401, phrase: "")), 6),
            (.response(.credentialsRefused(status: 407, phrase: "")), 6),
            (.response(.loginRefused(said: "")), 6),
            (.connection(.turnedAway), 4),
            (.response(.tooLarge(limit: 10)), 7), (.resume(.entityTagChanged(from: "a", to: "b")), 9),
            (.checksum(.notInSums(sumsFile: "SUMS")), 10),
            (.file(.cannot(.write, path: "f", errno: ENOSPC)), 3),
        ]
        for row in rows {
            XCTAssertEqual(TransferFailure(row.reason).exitCode, row.exit, "\(row.reason)")
        }
        let full = fileFailure(.write, "f", errno: ENOSPC)
        XCTAssertEqual(full.reason.code, "no-space", "known from its errno")
        XCTAssertEqual(full.exitCode, 3)
        let refused = ResponseHead(status: 401, headers: []).failure(sentCredentials: true)
        XCTAssertEqual(refused.reason.code, "credentials-refused")
        XCTAssertEqual(refused.exitCode, 6)
        XCTAssertEqual(ResponseHead(status: 401, headers: []).failure(sentCredentials: false).reason.code, "http-status")
    }

    func testAFailureToldInOtherWordsKeepsItsReason() {
        let refused = TransferFailure(.connection(.connectFailed(said: "Failed to connect")), transient: true)
        let retried = refused.noting(.afterAttempts(6))
        XCTAssertEqual(retried.message, "Failed to connect (after 6 attempts)")
        XCTAssertEqual(retried.reason, .connection(.connectFailed(said: "Failed to connect")))
        XCTAssertTrue(retried.isTransient)
        XCTAssertEqual(retried.kind, .network)
        let givenUp = FailureReason.connection(.hostGivenUp(host: "http://h:80", after: refused.reason, again: false))
        XCTAssertEqual(givenUp.code, "host-given-up")
        XCTAssertFalse(givenUp.isHostDown, "never counted as a new failure")
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
