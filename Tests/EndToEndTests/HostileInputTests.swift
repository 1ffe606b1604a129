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
        XCTAssertTrue(result.stderr.contains("HTTP 404 Not Found]0;pwned[2J"), result.stderr.debugDescription)
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
                "afget: \(url): ab.bin: the path contains a control character (0x01), which resume "
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
