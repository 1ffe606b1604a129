@testable import AFGetKit
import XCTest

/// Names and text that come from servers.
final class ServerTextTests: XCTestCase {
    func testContentDispositionParameters() {
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename=plain.txt"), "plain.txt")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment;filename=\"q \\\"x\\\";y.txt\""), "q \"x\";y.txt")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; FILENAME*=utf-8''%E2%82%AC.txt; filename=e.txt"), "€.txt")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename*=koi8-r''x; filename=ok.txt"), "ok.txt",
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
            let line = bytes.withUnsafeBytes { TransferContext.decodeHeaderLine($0) }
            XCTAssertEqual(line, "Content-Disposition: attachment; filename=\"café.txt\"")
        }
    }

    func testTerminalTextDropsControlsAndBidiMarks() {
        XCTAssertEqual(TerminalText.clean("ok\u{1B}[31mred\u{07}\u{9B}\u{202E}\tend"), "ok[31mred end")
        XCTAssertEqual(TerminalText.clean("plain text é 😀"), "plain text é 😀")
    }
}
