import Foundation
import TestServer
import XCTest

/// Transfers through a real forward proxy in the test process: `-x`, the proxy environment
/// variables, `--noproxy`, tunnels for HTTPS, the proxy's credentials (sent, never shown), and
/// a proxy that refuses or is not there.
final class ProxyTests: ServerTestCase {
    private let size = 70_000

    /// Every run starts from an environment without proxies, whatever the machine's is.
    private let noProxyEnvironment = [
        "http_proxy": "", "https_proxy": "", "HTTPS_PROXY": "", "all_proxy": "", "ALL_PROXY": "", "no_proxy": "",
        "NO_PROXY": "",
    ]

    private func fetch(
        _ url: String, _ options: [String], environment: [String: String] = [:], output: String = "x.bin"
    ) throws -> AfgetResult {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(output))
        return try Afget.run(
            ["-q", "--retry", "0", "-o", output] + options + [url], in: directory,
            environment: noProxyEnvironment.merging(environment) { $1 })
    }

    private func assertDownloaded(_ result: AfgetResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("x.bin").path), TestPayload.sha256(count: size),
            file: file, line: line)
    }

    private var fileURL: String { server.url("/file/x.bin?size=\(size)") }
    private var absoluteForm: String { "GET \(fileURL) HTTP/1.1" }

    func testADownloadGoesThroughTheProxyGiven() throws {
        let proxy = try ForwardProxy()
        assertDownloaded(try fetch(fileURL, ["-x", proxy.url]))
        // Without a scheme the proxy is http://.
        assertDownloaded(try fetch(fileURL, ["--proxy", "127.0.0.1:\(proxy.port)"]))
        XCTAssertEqual(proxy.seen.map(\.requestLine), [absoluteForm, absoluteForm])
        XCTAssertEqual(server.log.all.count, 2)

        // The other commands that make transfers go through it too.
        let request = try Afget.run(["request", "-x", proxy.url, fileURL], in: directory, environment: noProxyEnvironment)
        XCTAssertEqual(request.status, 0, request.stderr)
        XCTAssertEqual(sha256Hex(request.stdout), TestPayload.sha256(count: size))
        try Data("uploaded through the proxy".utf8).write(to: directory.appendingPathComponent("up.txt"))
        let upload = try Afget.run(
            ["upload", "-q", "-x", proxy.url, "up.txt", server.url("/upload")], in: directory, environment: noProxyEnvironment)
        XCTAssertEqual(upload.status, 0, upload.stderr)
        XCTAssertEqual(
            proxy.seen.map(\.requestLine).suffix(2), [absoluteForm, "PUT \(server.url("/upload")) HTTP/1.1"])
        XCTAssertEqual(server.log.all.last?.bodyCount, 26)
    }

    func testTheEnvironmentsProxyIsUsedAndNoProxyBypassesIt() throws {
        let proxy = try ForwardProxy()
        assertDownloaded(try fetch(fileURL, [], environment: ["http_proxy": proxy.url]))
        XCTAssertEqual(proxy.seen.map(\.requestLine), [absoluteForm])

        assertDownloaded(try fetch(fileURL, ["--noproxy", "127.0.0.1"], environment: ["http_proxy": proxy.url]))
        assertDownloaded(try fetch(fileURL, [], environment: ["http_proxy": proxy.url, "no_proxy": "localhost,127.0.0.1"]))
        assertDownloaded(try fetch(fileURL, ["-x", proxy.url, "--noproxy", "*"]))
        XCTAssertEqual(proxy.seen.count, 1, "bypassed, yet the proxy was asked: \(proxy.seen)")
        XCTAssertEqual(server.log.all.count, 4)
    }

    func testAnHTTPSDownloadGoesThroughATunnel() throws {
        let origin = try TestHTTPServer(tls: TestCertificates.shared.good)
        let proxy = try ForwardProxy()
        let url = origin.url("/file/x.bin?size=\(size)")
        assertDownloaded(try fetch(url, ["-x", proxy.url, "--cacert", TestCertificates.shared.caPath]))
        assertDownloaded(
            try fetch(url, ["--cacert", TestCertificates.shared.caPath], environment: ["https_proxy": proxy.url]))
        XCTAssertEqual(proxy.seen.map(\.requestLine), Array(repeating: "CONNECT 127.0.0.1:\(origin.port) HTTP/1.1", count: 2))
        XCTAssertEqual(origin.log.all.map(\.uri), Array(repeating: "/file/x.bin?size=\(size)", count: 2))
    }

    func testProxyCredentialsAreSentButNeverShown() throws {
        let proxy = try ForwardProxy(credentials: "user:secret")
        let basic = "Basic " + Data("user:secret".utf8).base64EncodedString()
        let withCredentials = "http://user:secret@127.0.0.1:\(proxy.port)"
        let tlsOrigin = try TestHTTPServer(tls: TestCertificates.shared.good)
        let caFile = TestCertificates.shared.caPath
        let runs = [
            try fetch(fileURL, ["-v", "-x", withCredentials]),
            try fetch(fileURL, ["-v"], environment: ["http_proxy": withCredentials]),
            try fetch(tlsOrigin.url("/file/x.bin?size=\(size)"), ["-v", "-x", withCredentials, "--cacert", caFile]),
        ]
        for run in runs {
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("Proxy-Authorization: Basic ***"), run.stderr)
            for secret in ["secret", Data("user:secret".utf8).base64EncodedString()] {
                XCTAssertFalse(run.stderr.contains(secret) || run.stdoutText.contains(secret), "\(secret) shown: \(run.stderr)")
            }
        }
        XCTAssertEqual(proxy.seen.map(\.proxyAuthorization), [basic, basic, basic])
        assertDownloaded(try fetch(fileURL, ["-x", withCredentials]))

        // No credentials: an HTTP error (exit 8, as a 401 without credentials is) that names the
        // proxy and says where credentials go.
        for url in [fileURL, tlsOrigin.url("/file/x.bin?size=\(size)")] {
            let asked = try fetch(url, ["-x", proxy.url, "--cacert", caFile])
            XCTAssertEqual(asked.status, 8, asked.stderr)
            XCTAssertEqual(asked.stderrLines.count, 1, asked.stderr)
            XCTAssertTrue(asked.stderr.contains("the proxy 127.0.0.1:\(proxy.port) asks for credentials"), asked.stderr)
        }

        // Refused credentials: exit 6, one line naming the proxy, not the origin; the password
        // in neither the message nor the report.
        for url in [fileURL, tlsOrigin.url("/file/x.bin?size=\(size)")] {
            let refused = try fetch(
                url, ["-x", "http://user:wrong-password@127.0.0.1:\(proxy.port)", "--cacert", caFile, "--report", "r.json"])
            XCTAssertEqual(refused.status, 6, refused.stderr)
            XCTAssertEqual(refused.stderrLines.count, 1, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("proxy 127.0.0.1:\(proxy.port)"), refused.stderr)
            XCTAssertFalse(refused.stderr.contains("wrong-password"), refused.stderr)
            let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
            XCTAssertTrue(report.contains("refused the credentials"), report)
            XCTAssertFalse(report.contains("wrong-password"), report)
        }
    }

    /// A download through a proxy with credentials that stops half way keeps resume data
    /// without them, and `afget resume` does not reuse the proxy: it is no part of what is saved.
    func testResumeDataHoldsNoProxyAndNoPassword() throws {
        let proxy = try ForwardProxy(credentials: "user:secret")
        let size = 3_000_000  // large enough to be kept in a named part file when cut off
        let url = server.url("/flaky/half.bin?size=\(size)&fail=1&mode=drop")
        let first = try Afget.run(
            ["-q", "--retry", "0", "-x", "http://user:secret@127.0.0.1:\(proxy.port)", url], in: directory,
            environment: noProxyEnvironment)
        XCTAssertEqual(first.status, 4, first.stderr)
        let resumeData = try Data(contentsOf: directory.appendingPathComponent("half.bin.afresume"))
        let text = String(decoding: resumeData, as: UTF8.self)
        XCTAssertFalse(text.contains("secret") || text.contains("127.0.0.1:\(proxy.port)"), text)

        let resumed = try Afget.run(["resume", "-q", "half.bin.afresume"], in: directory, environment: noProxyEnvironment)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("half.bin").path), TestPayload.sha256(count: size))
        XCTAssertEqual(proxy.seen.count, 1, "resume went through the proxy again: \(proxy.seen)")
    }

    func testAProxyWhereNothingListensFailsAtOnce() throws {
        let port = try ForwardProxy().port  // released at once: nothing listens there now
        let started = Date()
        let result = try fetch(fileURL, ["-x", "http://user:secret@127.0.0.1:\(port)"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot reach the proxy 127.0.0.1:\(port)"), result.stderr)
        XCTAssertFalse(result.stderr.contains("secret"), result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "a refused proxy is not retried")
        XCTAssertEqual(server.log.all.count, 0)
    }

    func testAnEmptyProxyOverridesTheEnvironment() throws {
        let proxy = try ForwardProxy()
        assertDownloaded(
            try fetch(fileURL, ["--proxy", ""], environment: ["http_proxy": proxy.url, "all_proxy": proxy.url]))
        XCTAssertEqual(proxy.seen.count, 0)
        XCTAssertEqual(server.log.all.count, 1)
    }

    func testAMalformedProxyIsAUsageError() throws {
        for bad in ["http://user:secret@127.0.0.1:99999", "ftp://user:secret@127.0.0.1:21", "http://user:secret@[::1"] {
            let result = try fetch(fileURL, ["-x", bad])
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("--proxy"), result.stderr)
            XCTAssertFalse(result.stderr.contains("secret"), result.stderr)
        }
        XCTAssertEqual(server.log.all.count, 0)
    }
}
