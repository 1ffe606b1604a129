import Foundation
import TestServer
import XCTest

/// What a hostile server or hostile input can reach: messages, argument bytes, planted symlinks.
final class HostileInputTests: ServerTestCase {
    func testServerTextIsPrintedWithoutControlCharacters() throws {
        let reason = "Not Found\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}"
        let url = server.url("/status/404?reason=" + reason.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let result = try Afget.run(["-v", "--progress", "line", "-o", "x", url], in: directory)
        XCTAssertEqual(result.status, 8)
        XCTAssertFalse(
            result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E },
            result.stderr.debugDescription)
        XCTAssertTrue(
            result.stderr.contains(#"HTTP 404 Not Found\x1B]0;pwned\x07\x1B[2J\u202E"#), result.stderr.debugDescription)
    }

    /// Clears the screen and rings the bell, if a terminal is given it to obey.
    private static let hostile = "\u{1B}[2J\u{07}"
    /// What people see of it instead.
    private static let hostileShown = #"\x1B[2J\x07"#

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// Neither ESC nor BEL reached stderr, and the line names the cause with them shown as text.
    private func assertShownNotObeyed(
        _ result: AfgetResult, saying cause: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertFalse(
            result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, result.stderr.debugDescription,
            file: file, line: line)
        XCTAssertTrue(result.stderr.contains(cause), result.stderr.debugDescription, file: file, line: line)
    }

    /// A redirect afget refuses quotes its Location: to a URL that is malformed, or of
    /// another scheme.
    func testARefusedRedirectsLocationIsShownNotObeyed() throws {
        for (target, cause) in [
            ("http://127.0.0.1:1/a" + Self.hostile, "redirect to a malformed URL: http://127.0.0.1:1/a" + Self.hostileShown),
            ("gopher://h/a" + Self.hostile, "refusing redirect to gopher: gopher://h/a" + Self.hostileShown),
        ] {
            let result = try Afget.run(["-q", server.url("/redirect?to=" + Self.percentEncoded(target))], in: directory)
            XCTAssertEqual(result.status, 7, result.stderr)
            assertShownNotObeyed(result, saying: cause)
        }
        XCTAssertEqual(listing(directory), [])
    }

    func testAMalformedContentLengthIsShownNotObeyed() throws {
        let url = server.url("/file/cl.bin?size=10&nolength=1&length2=" + Self.percentEncoded("10" + Self.hostile))
        let result = try Afget.run(["-q", url], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        assertShownNotObeyed(result, saying: "afget: \(url): malformed Content-Length \"10\(Self.hostileShown)\"")
        XCTAssertEqual(listing(directory), [])
    }

    /// The notice that a continue's answer cannot be used, and the download starts over.
    func testAMalformedContentRangeOnAContinueIsShownNotObeyed() throws {
        let size = 3_000_000
        let url = server.url("/flaky/f.bin?size=\(size)&fail=1&mode=drop")
        try leaveHalfADownload(of: url, named: "f.bin", size: size)
        let range = "bytes \(size / 2)-\(size - 1)/\(size)" + Self.hostile
        server.change("f.bin", ["crange": range])
        let result = try Afget.run(["--progress", "line", url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        assertShownNotObeyed(
            result,
            saying: "afget: f.bin: cannot continue (malformed Content-Range \"bytes \(size / 2)-\(size - 1)/\(size)"
                + "\(Self.hostileShown)\"); starting over")
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("f.bin").path), TestPayload.sha256(count: size))
    }

    func testAnUnknownContentEncodingIsShownNotObeyed() throws {
        let url = server.url("/file/e.bin?size=10&coded=" + Self.percentEncoded("br" + Self.hostile))
        let result = try Afget.run(["-q", "--compressed", url], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        // A coding is read in lower case.
        assertShownNotObeyed(result, saying: "afget: \(url): the body is encoded as br\\x1B[2j\\x07, which afget does not decode")
        XCTAssertEqual(listing(directory), [])
    }

    func testAnUnacceptableContentTypeIsShownNotObeyed() throws {
        let reply = try RawReplyServer(
            reply: Array(
                ("HTTP/1.1 200 OK\r\nContent-Type: text/html" + Self.hostile
                    + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok").utf8))
        let url = reply.url("/api")
        let result = try Afget.run(["request", "--accept-type", "application/json", url], in: directory)
        XCTAssertEqual(result.status, 7, result.stderr)
        // A media type is read in lower case.
        assertShownNotObeyed(
            result,
            saying: "afget: \(url): unacceptable content type \"text/html\\x1B[2j\\x07\" (accepted: application/json)")
    }

    /// A URL argument holding a byte a URL cannot hold is refused, and the line quoting it
    /// shows the byte rather than sending it to the terminal.
    func testAURLArgumentWithAControlByteIsRefusedShowingIt() throws {
        let result = try Afget.run(["-q", server.url("/file/a" + Self.hostile)], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        assertShownNotObeyed(
            result,
            saying: "afget: \(server.url("/file/a"))\(Self.hostileShown): malformed URL: Bad path")
        XCTAssertEqual(server.log.all.count, 0)
    }

    /// A control character in a path or a header value cannot go into resume data (an XML
    /// property list: it was written raw, which no other plist reader accepts) nor, for a
    /// header, onto the wire (RFC 9110 §5.5): refused, nothing created, nothing sent.
    func testControlCharactersInPathsAndHeadersAreRefused() throws {
        let url = server.url("/file/a.bin?size=10")
        let path = try Afget.run(["-q", "-o", "a\u{01}b.bin", url], in: directory)
        XCTAssertEqual(path.status, 2)
        XCTAssertEqual(
            path.stderrLines,
            [
                "afget: \(url): a\\x01b.bin: the path contains a control character (0x01), which resume "
                    + "data cannot record; choose another name"
            ])
        let header = try Afget.run(["-q", "-H", "X-Note: a\u{01}b", url], in: directory)
        XCTAssertEqual(header.status, 2)
        XCTAssertEqual(header.stderrLines, ["afget: header \"X-Note\" contains a control character (see afget --help)"])
        XCTAssertEqual(listing(directory), [])
        XCTAssertEqual(server.log.all.count, 0)
        let tabbed = try Afget.run(["-q", "-H", "X-Note: a\tb", url], in: directory)
        XCTAssertEqual(tabbed.status, 0, "a tab is allowed in a field value")
        XCTAssertEqual(server.log.all.first?.header("X-Note"), "a\tb")
    }

    func testArgumentsThatAreNotUTF8AreRefusedNotMangled() throws {
        // Process takes Swift strings; a shell passes the raw bytes.
        for argument in ["-o $'out\\xff.bin'", "-i $'list\\xe9.txt'", "-d $'dir\\xc3'"] {
            let (status, message) = try runShell(
                "exec bash -c \"exec '\(Afget.binary.path)' \(argument) '\(server.url("/file/a.bin"))'\"",
                in: directory)
            XCTAssertEqual(status, 2, argument)
            XCTAssertEqual(message.split(separator: "\n").count, 1, message)
            XCTAssertTrue(message.contains("is not valid UTF-8"), message)
            XCTAssertFalse(message.contains("\u{FFFD}"), message)
        }
        XCTAssertEqual(listing(directory), [])
        XCTAssertEqual(server.log.all.count, 0)
    }

    func testASymlinkAtThePartFileIsNotWrittenThrough() throws {
        let victim = try plantSymlink(at: "a.bin.afpart")
        let result = try Afget.run(["-q", server.url("/file/a.bin?size=5000")], in: directory)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("symbolic link"), result.stderr)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
        XCTAssertFalse(listing(directory).contains("a.bin"))
    }

    func testASymlinkAtTheResumeFileLeavesItsTargetAlone() throws {
        let victim = try plantSymlink(at: "a.bin.afresume")
        let result = try Afget.run(["-q", server.url("/file/a.bin?size=5000")], in: directory)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
        XCTAssertEqual(result.status, 9, result.stderr)
        XCTAssertTrue(result.stderr.contains("a.bin.afresume"), result.stderr)
        let restarted = try Afget.run(["-q", "--restart", server.url("/file/a.bin?size=5000")], in: directory)
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("a.bin").path), TestPayload.sha256(count: 5000))
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
        XCTAssertEqual(listing(directory), ["a.bin", "victim.txt"])
    }

    func testASymlinkAtTheResumeFilesTemporaryNameIsNotWrittenThrough() throws {
        let victim = try plantSymlink(at: "a.bin.aftmp")
        // Dripped, so the transfer is still running when the first checkpoint fails.
        let result = try Afget.run(["-q", server.url("/file/a.bin?size=3000000&chunk=500000&ms=100")], in: directory)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("a.bin.aftmp"), result.stderr)
    }

    func testACompletedFileGetsTheUmasksModeNeverWider() throws {
        let (status, stderr) = try runShell(
            "umask 027 && exec '\(Afget.binary.path)' -q '\(server.url("/file/m.bin?size=100"))'",
            in: directory)
        XCTAssertEqual(status, 0, stderr)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("m.bin").path)[
            .posixPermissions]
        XCTAssertEqual(mode as? Int, 0o640)
    }

    /// A file holding "precious" and a symbolic link to it at `name`; returns the file.
    private func plantSymlink(at name: String) throws -> URL {
        let victim = directory.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent(name).path,
            withDestinationPath: victim.path)
        return victim
    }
}
