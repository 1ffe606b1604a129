import Foundation
import TestServer
import XCTest

/// URLs as people type them: `afget 127.0.0.1:8080/x` is http, as curl and wget take it; a local
/// path and a list's line without a scheme are still refused, before anything is sent.
final class URLsAsTypedTests: ServerTestCase {
    /// The test server's URL as typed without its scheme: `127.0.0.1:PORT/path`.
    private func typed(_ path: String, host: String = "127.0.0.1") -> String {
        String(server.url(path, host: host).dropFirst("http://".count))
    }

    /// `afget 127.0.0.1:8080/x` said "not a URL".
    func testACommandLineURLWithoutASchemeIsFetchedOverHTTP() throws {
        let result = try Afget.run(["-q", typed("/file/f.bin?size=1000")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(fileSize(directory.appendingPathComponent("f.bin")), 1000)
        let named = try Afget.run(["-q", "-o", "g.bin", typed("/file/g.bin?size=10", host: "localhost")], in: directory)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(fileSize(directory.appendingPathComponent("g.bin")), 10)
    }

    /// A local path is not a host: refused with the schemes afget takes, nothing sent.
    func testALocalPathIsNotTakenForAHost() throws {
        for path in ["./f.bin", "/srv/f.bin", "../f.bin"] {
            let result = try Afget.run(["-q", path], in: directory)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertEqual(
                result.stderrLines,
                ["afget: \(path): not a URL: it must start with http://, https://, ftp://, ftps://, sftp:// or scp://"])
        }
        XCTAssertEqual(server.log.all.count, 0)
    }

    /// A list stays strict: a line without a scheme is more likely a mistake than a URL.
    func testAListLineWithoutASchemeIsStillRefused() throws {
        try Data("\(typed("/file/f.bin?size=10"))\n".utf8).write(to: directory.appendingPathComponent("urls.txt"))
        let result = try Afget.run(["-q", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("not a URL"), result.stderr)
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertNil(fileSize(directory.appendingPathComponent("f.bin")))
    }
}
