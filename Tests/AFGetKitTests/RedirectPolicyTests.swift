import AFGetRequest
import AFGetSession
import AFGetSupport
import AFGetKit
import CurlCore
import XCTest

final class RedirectPolicyTests: XCTestCase {
    private func request(_ url: String, method: String = "GET") throws -> HTTPRequest {
        HTTPRequest(
            method: method, url: try CurlURL(url),
            headers: [
                HTTPHeader(name: "Authorization", value: "Bearer t"),
                HTTPHeader(name: "Range", value: "bytes=5-", scope: .everyHop),
            ])
    }

    private func follow(_ decision: RedirectPolicy.Decision) throws -> HTTPRequest {
        guard case .follow(let next) = decision else {
            XCTFail("expected to follow, got \(decision)")
            throw CancellationError()
        }
        return next
    }

    func testSameOriginKeepsEveryHeader() throws {
        let next = try follow(
            RedirectPolicy().next(
                after: try request("http://a.test/x"), status: 302, target: "http://a.test:80/y", redirectsSoFar: 0))
        XCTAssertEqual(next.url.absoluteString, "http://a.test:80/y")
        XCTAssertEqual(next.headers.map(\.name), ["Authorization", "Range"])
    }

    func testAnotherHostPortOrSchemeDropsUserHeaders() throws {
        for target in ["http://b.test/x", "http://a.test:8080/x", "https://a.test/x"] {
            let next = try follow(
                RedirectPolicy().next(
                    after: try request("http://a.test/x"), status: 301, target: target, redirectsSoFar: 0))
            XCTAssertEqual(next.headers.map(\.name), ["Range"], target)
        }
    }

    func testHTTPSToHTTPIsRefused() throws {
        let decision = RedirectPolicy().next(
            after: try request("https://a.test/x"), status: 302, target: "http://a.test/x", redirectsSoFar: 0)
        XCTAssertEqual(
            decision, .refuse(TransferFailure(.response(.redirectToHTTP(target: "http://a.test/x")))))
    }

    func testOnlyHTTPAndHTTPSTargets() throws {
        for target in ["file:///etc/passwd", "ftp://a.test/x", "gopher://a.test/"] {
            let decision = RedirectPolicy().next(
                after: try request("http://a.test/x"), status: 302, target: target, redirectsSoFar: 0)
            guard case .refuse(let failure) = decision else { return XCTFail(target) }
            XCTAssertEqual(failure.kind, .protocolViolation)
        }
    }

    func testRedirectLimitAndNoFollow() throws {
        let limited = RedirectPolicy(maxRedirects: 2)
        _ = try follow(
            limited.next(after: try request("http://a.test/"), status: 302, target: "http://a.test/2", redirectsSoFar: 1))
        XCTAssertEqual(
            limited.next(after: try request("http://a.test/"), status: 302, target: "http://a.test/3", redirectsSoFar: 2),
            .refuse(TransferFailure(.response(.tooManyRedirects(limit: 2)))))
        XCTAssertEqual(
            RedirectPolicy(follow: false).next(
                after: try request("http://a.test/"), status: 302, target: "http://a.test/2", redirectsSoFar: 0),
            .deliver)
    }

    func testSeeOtherTurnsIntoGET() throws {
        var post = try request("http://a.test/form", method: "POST")
        post.body = .bytes([1, 2, 3])
        let next = try follow(RedirectPolicy().next(after: post, status: 303, target: "http://a.test/done", redirectsSoFar: 0))
        XCTAssertEqual(next.method, "GET")
        XCTAssertEqual(next.body, .none)
        let kept = try follow(RedirectPolicy().next(after: post, status: 307, target: "http://a.test/again", redirectsSoFar: 0))
        XCTAssertEqual(kept.method, "POST")
        XCTAssertEqual(kept.body, .bytes([1, 2, 3]))
    }
}
