@testable import AFGetSession
@testable import AFGetSupport
@testable import AFGetKit
import XCTest

/// Names and text that come from servers.
final class ServerTextTests: XCTestCase {
    func testContentDispositionParameters() {
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename=plain.txt"), "plain.txt")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment;filename=\"q \\\"x\\\";y.txt\""), "q \"x\";y.txt")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; FILENAME*=utf-8''%E2%82%AC.txt; filename=e.txt"), "€.txt")
        XCTAssertEqual(
            ContentDisposition.filename(from: "attachment; filename*=koi8-r''x; filename=ok.txt"), "ok.txt",
            "an unknown charset falls back to filename")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename*=UTF-8''%ZZ; filename=ok.txt"), "ok.txt")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename=first.txt; filename=second.txt"), "first.txt")
        XCTAssertNil(ContentDisposition.filename(from: "inline"))
        XCTAssertNil(ContentDisposition.filename(from: "attachment; filename="))
    }

    func testHeaderBytesAreUTF8OrElseLatin1() {
        let utf8: [UInt8] = Array("Content-Disposition: attachment; filename=\"café.txt\"".utf8)
        let latin1: [UInt8] = Array("Content-Disposition: attachment; filename=\"caf".utf8) + [0xE9] + Array(".txt\"".utf8)
        for bytes in [utf8, latin1] {
            let line = bytes.withUnsafeBytes { HeaderLine.text($0) }
            XCTAssertEqual(line, "Content-Disposition: attachment; filename=\"café.txt\"")
        }
    }

    func testHeaderLinesSplitOnBytes() {
        func line(_ bytes: [UInt8]) -> HeaderLine { bytes.withUnsafeBytes { HeaderLine($0) } }
        XCTAssertEqual(
            line(Array("HTTP/1.1 206 Partial Content".utf8)),
            .status(version: "HTTP/1.1", code: 206, reason: "Partial Content"))
        XCTAssertEqual(line(Array("HTTP/2 200".utf8)), .status(version: "HTTP/2", code: 200, reason: ""))
        XCTAssertEqual(
            line(Array("HTTP/1.1  404 \tNot  Found ".utf8)), .status(version: "HTTP/1.1", code: 404, reason: "Not  Found"))
        XCTAssertEqual(line(Array("HTTP/1.1 2x0 Odd".utf8)), .status(version: "HTTP/1.1", code: 0, reason: "Odd"))
        XCTAssertEqual(line(Array("HTTP/1.0".utf8)), .status(version: "HTTP/1.0", code: 0, reason: ""))
        XCTAssertEqual(line([]), .end)
        XCTAssertEqual(line(Array("ETag: \t \"v1\" \t".utf8)), .field(name: "ETag", value: "\"v1\""))
        XCTAssertEqual(line(Array("X-Empty:".utf8)), .field(name: "X-Empty", value: ""))
        XCTAssertEqual(line(Array("Location: http://h:8/a:b".utf8)), .field(name: "Location", value: "http://h:8/a:b"))
        XCTAssertEqual(line(Array("\t folded part ".utf8)), .continuation("folded part"))
        XCTAssertEqual(line(Array("no colon here".utf8)), .other)
        // A line that is not UTF-8 is read as ISO-8859-1, name and value alike.
        XCTAssertEqual(line(Array("Caf".utf8) + [0xE9] + Array(": x".utf8) + [0xFF]), .field(name: "Café", value: "xÿ"))
        XCTAssertEqual(line(Array("N: ".utf8) + [0xE9]), .field(name: "N", value: "é"))
    }

    func testURLsAreShownWithoutTheirPassword() {
        XCTAssertEqual(removingPassword(from: "http://u:p@h/f"), "http://u@h/f")
        XCTAssertEqual(removingPassword(from: "https://u:p:q@h:8443/f?x=1"), "https://u@h:8443/f?x=1")
        XCTAssertEqual(removingPassword(from: "http://u:p@h"), "http://u@h")
        XCTAssertEqual(removingPassword(from: "http://u:p@x@h/f"), "http://u@h/f", "the last @ ends the user information")
        for unchanged in ["http://u@h/f", "http://h/f?to=a:b@c", "http://h:80/a:b@c", "http://h/#a:b@c", "not a url"] {
            XCTAssertEqual(removingPassword(from: unchanged), unchanged)
        }
    }

    /// What could steer a terminal is shown as text, so the line still says what came.
    func testTerminalTextShowsControlsAndBidiMarks() {
        XCTAssertEqual(
            TerminalText.clean("ok\u{1B}[31mred\u{07}\u{9B}\u{202E}\u{0}\tend\r\n"),
            #"ok\x1B[31mred\x07\x9B\u202E\x00 end\x0D\x0A"#)
        XCTAssertEqual(TerminalText.clean("plain text é 😀"), "plain text é 😀")
    }
}
