import Foundation
import TestServer
import XCTest

/// Redirects are followed under afget's own rules, checked on what reached each server.
final class RedirectTests: XCTestCase {
    var origin: TestHTTPServer!
    var other: TestHTTPServer!
    var directory: URL!

    override func setUpWithError() throws {
        origin = try TestHTTPServer()
        other = try TestHTTPServer()
        directory = try makeScratchDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func redirect(to target: String, code: Int = 302) -> String {
        origin.url("/redirect/start.txt?code=\(code)&to=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
    }

    func testFileIsNamedAfterTheURLAsGivenNotTheTarget() throws {
        let result = try Afget.run(["-q", redirect(to: origin.url("/file/target.bin?size=1000"))], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["start.txt"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("start.txt").path), TestPayload.sha256(count: 1000))
    }

    func testUserHeadersAreNotSentToAnotherOrigin() throws {
        let result = try Afget.run(
            [
                "-q", "-H", "Authorization: Bearer secret-token", "-H", "Cookie: session=s3cr3t", "-H", "X-Custom: mine",
                "-o", "echo.txt", redirect(to: other.url("/echo-headers")),
            ],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)

        let first = try XCTUnwrap(origin.log.all.first)
        XCTAssertEqual(first.header("Authorization"), "Bearer secret-token", "the origin asked for gets them")
        XCTAssertEqual(first.header("X-Custom"), "mine")
        let second = try XCTUnwrap(other.log.all.first)
        XCTAssertNil(second.header("Authorization"))
        XCTAssertNil(second.header("Cookie"))
        XCTAssertNil(second.header("X-Custom"))
        let echoed = try String(contentsOf: directory.appendingPathComponent("echo.txt"), encoding: .utf8)
        XCTAssertFalse(echoed.contains("secret"), echoed)
    }

    /// curl's and wget's habits work: -O and -L are accepted (already what afget does), -P and
    /// --output-dir are -d, and -A's User-Agent goes to every host, after a redirect to another
    /// one too (it is no secret), instead of afget's own.
    func testCurlAndWgetHabitsAreAccepted() throws {
        let result = try Afget.run(
            [
                "-q", "-O", "-L", "-P", "got", "-A", "Fetcher/2.1 (+https://example.org/bot)",
                redirect(to: other.url("/echo-headers")),
            ],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("got")), ["start.txt"], "named after the URL given")
        XCTAssertEqual(origin.log.all.first?.header("User-Agent"), "Fetcher/2.1 (+https://example.org/bot)")
        XCTAssertEqual(other.log.all.first?.header("User-Agent"), "Fetcher/2.1 (+https://example.org/bot)")
        XCTAssertEqual(
            other.log.all.first?.headers.filter { $0.name.lowercased() == "user-agent" }.count, 1,
            "afget's own is not sent beside it")

        let outputDir = try Afget.run(["-q", "--output-dir", "also", origin.url("/file/a.bin?size=10")], in: directory)
        XCTAssertEqual(outputDir.status, 0, outputDir.stderr)
        XCTAssertEqual(listing(directory.appendingPathComponent("also")), ["a.bin"])

        let contradiction = try Afget.run(["-L", "--no-follow", origin.url("/file/a.bin?size=10")], in: directory)
        XCTAssertEqual(contradiction.status, 2)
    }

    func testUserHeadersStayOnSameOriginRedirect() throws {
        let result = try Afget.run(
            ["-q", "-H", "Authorization: Bearer secret-token", "-o", "echo.txt", redirect(to: origin.url("/echo-headers"))],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let echoed = try String(contentsOf: directory.appendingPathComponent("echo.txt"), encoding: .utf8)
        XCTAssertTrue(echoed.contains("Authorization: Bearer secret-token"), echoed)
    }

    /// A redirect to a URL with a password: followed, but the notice never shows the password,
    /// for downloads and requests alike (the request's copy of the notice showed it).
    func testARedirectNoticeNeverShowsAPassword() throws {
        let target = other.url("/echo").replacingOccurrences(of: "http://", with: "http://ann:s3cret@")
        for arguments in [["-v", "-o", "echo.json"], ["request", "-v"]] {
            let result = try Afget.run(arguments + [redirect(to: target)], in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(
                result.stderr.contains("* following redirect to http://ann@127.0.0.1:\(other.port)/echo"), result.stderr)
            let notices = result.stderrLines.filter { $0.contains("following redirect") }
            XCTAssertEqual(notices.count, 1, result.stderr)
            XCTAssertFalse(notices.contains { $0.contains("s3cret") }, "\(arguments): \(notices)")
        }
    }

    func testTooManyRedirectsExits7() throws {
        let loop = origin.url("/redirect/loop")
        let result = try Afget.run(["-q", "--max-redirects", "3", loop], in: directory)
        XCTAssertEqual(result.status, 7)
        XCTAssertTrue(result.stderr.contains("too many redirects (more than 3)"), result.stderr)
        XCTAssertEqual(origin.log.all.count, 4, "the first request and three redirects")
        XCTAssertEqual(listing(directory), [])
    }

    func testNoFollowStopsAtTheRedirect() throws {
        let result = try Afget.run(["-q", "--no-follow", redirect(to: origin.url("/file/x?size=10"))], in: directory)
        XCTAssertEqual(result.status, 7)
        XCTAssertTrue(result.stderr.contains("not followed"), result.stderr)
        XCTAssertEqual(origin.log.all.count, 1)
        XCTAssertEqual(listing(directory), [])
    }

    /// An empty Location is no redirect to follow: it used to say "not followed (--no-follow)"
    /// when no one had given --no-follow.
    func testARedirectWithAnEmptyLocationSaysSo() throws {
        let url = origin.url("/redirect?to=")
        let result = try Afget.run(["-q", url], in: directory)
        XCTAssertEqual(result.status, 7)
        XCTAssertEqual(result.stderrLines, ["afget: \(url): HTTP 302 Found: a redirect without a Location to follow"])
        XCTAssertEqual(origin.log.all.count, 1)
        XCTAssertEqual(listing(directory), [])
    }

    /// A reply with no status line (libcurl's "HTTP/0.9", reported as an unsupported protocol)
    /// is the server's fault, exit 7, not a bad URL (exit 2).
    func testAReplyThatIsNotHTTPExits7() throws {
        let server = try RawReplyServer(reply: Array("garbage\r\n\r\n".utf8))
        let url = server.url("/f.bin")
        let result = try Afget.run(["-q", "--retry", "0", url], in: directory)
        XCTAssertEqual(result.status, 7)
        XCTAssertEqual(result.stderrLines, ["afget: \(url): the reply is not an HTTP response (no status line)"])
        XCTAssertEqual(listing(directory), [])
    }

    func testRedirectToAnotherSchemeIsRefused() throws {
        let result = try Afget.run(["-q", redirect(to: "file:///etc/passwd")], in: directory)
        XCTAssertEqual(result.status, 7)
        XCTAssertTrue(result.stderr.contains("refusing redirect to file"), result.stderr)
        XCTAssertEqual(listing(directory), [])
    }
}
