@testable import AFGetKit
import AFGetRequest
@testable import AFGetSession
import AFGetSupport
import CurlCore
import FoundationEssentials
import XCTest

/// What the fuzz targets (Fuzz/, Scripts/fuzz.sh) found, each input fed to the unit again; the
/// same inputs are in the targets' corpora (Fuzz/Corpus/TARGET), so every fuzz run replays them.
final class FuzzFindingTests: XCTestCase {
    /// content-disposition: dots were dropped from the front, then a blank was left there.
    func testANameMadeSafeStartsWithNeitherADotNorABlank() {
        XCTAssertEqual(FileNaming.safeComponent(". .txt"), "txt")
        XCTAssertEqual(FileNaming.safeComponent(" . . .config"), "config")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename=\". .pdf\"").map(FileNaming.safeComponent), "pdf")
        let name = FileNaming.safeComponent(". .\u{FFFD}")
        XCTAssertFalse(name.hasPrefix(" ") || name.hasPrefix("."), name)
    }

    /// content-disposition: a percent escape was read by UInt8(_:radix:), which takes a sign:
    /// "%+F" was the byte 0x0F, and "%-0" a NUL in the name.
    func testAPercentEscapeIsTwoHexDigits() {
        XCTAssertNil(ContentDisposition.decodeExtended("UTF-8''cron.d%+Fx"))
        XCTAssertNil(ContentDisposition.decodeExtended("UTF-8''a%-0b"))
        XCTAssertEqual(ContentDisposition.decodeExtended("UTF-8''na%C3%afve%20x"), "naïve x")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename=plain.txt; filename*=UTF-8''%+Fx"), "plain.txt")
    }

    /// http-date: Retry-After "-0" (and "+5") was taken as delay-seconds, which are digits only.
    func testRetryAfterIsDigitsOrAnHTTPDate() {
        XCTAssertNil(RetryAfter.seconds("-0", now: 0))
        XCTAssertNil(RetryAfter.seconds("+5", now: 0))
        XCTAssertEqual(RetryAfter.seconds(" 5 ", now: 0), 5)
        XCTAssertEqual(RetryAfter.seconds("Thu, 01 Jan 1970 00:01:00 GMT", now: 0), 60)
    }

    /// redirect: a refused redirect from HTTPS to HTTP quoted its target whole, password and all.
    func testARedirectDownToHTTPIsRefusedWithoutThePassword() throws {
        let request = HTTPRequest(url: try CurlURL("https://files.example/f"))
        let decision = RedirectPolicy().next(
            after: request, status: 302, target: "http://ann:hunter2@files.example/f", redirectsSoFar: 0)
        guard case .refuse(let failure) = decision else { return XCTFail("\(decision)") }
        XCTAssertEqual(failure.message, "refusing redirect from HTTPS to HTTP: http://ann@files.example/f")
    }

    /// redirect: "@" followed by a combining mark is one Character that is not "@", so the
    /// password before it was not found; the same for ":" ending a scheme.
    func testAPasswordBeforeACombiningMarkIsRemoved() throws {
        XCTAssertEqual(removingPassword(from: "http://ann:hunter2@\u{E38}files.example/f"), "http://ann@\u{E38}files.example/f")
        XCTAssertFalse(removingPasswords(inText: "proxy 'http://ann:hunter2@\u{E38}h:3128'").contains("hunter2"))
        let request = HTTPRequest(url: try CurlURL("https://files.example/f"))
        for target in ["http://ann:hunter2@\u{E38}files.example/f", "http:\u{338}//ann:hunter2@files.example/f"] {
            let decision = RedirectPolicy().next(after: request, status: 302, target: target, redirectsSoFar: 0)
            guard case .refuse(let failure) = decision else { return XCTFail("\(decision)") }
            XCTAssertFalse(failure.message.contains("hunter2"), failure.message)
        }
    }

    /// content-decoder: a raw deflate body whose first piece was one byte was taken for
    /// zlib-wrapped (zlib had read that byte), then refused when the second came.
    func testRawDeflateDecodesWhateverThePieces() {
        let hello: [UInt8] = [0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]  // "hello", raw deflate
        for split in 0...hello.count {
            let decoded = decode([Array(hello[..<split]), Array(hello[split...])], codings: ["deflate"])
            XCTAssertEqual(decoded.output, Array("hello".utf8), "split at \(split)")
            XCTAssertNil(decoded.problem, "split at \(split)")
        }
        let truncated = decode([[0xCB]], codings: ["deflate"])
        XCTAssertEqual(truncated.problem, "the deflate stream is truncated")
    }

    /// content-decoder (found while fixing the one above): what zlib decoded in the call that
    /// then failed was dropped, so the same bytes in other pieces gave other output.
    func testHostileDeflateDecodesAlikeWhateverThePieces() {
        let body: [UInt8] = [0x12, 0x12, 0x12, 0x12, 0x00, 0x0B, 0x12, 0x00, 0x80]
        let whole = decode([body], codings: ["deflate"])
        let bytes = decode(body.map { [$0] }, codings: ["deflate"])
        XCTAssertEqual(bytes.output, whole.output)
        XCTAssertEqual(bytes.problem, whole.problem)
    }

    /// content-decoder: after a complete gzip member, whether what follows was "data after the
    /// end" or a broken member depended on whether zlib had read a byte of it in an earlier piece.
    func testWhatFollowsAGzipMemberIsJudgedAlikeWhateverThePieces() {
        let one: [UInt8] = [
            0x1F, 0x8B, 0x08, 0x00, 0xD2, 0x7C, 0x07, 0x6B, 0x02, 0xFF, 0xCB, 0xCF, 0x4B, 0x05, 0x00, 0xF1, 0x86, 0x6C, 0x7A,
            0x03, 0x00, 0x00, 0x00,
        ]
        let brokenMember: [UInt8] = [
            0x1F, 0x8B, 0x08, 0x00, 0xD2, 0x7C, 0x07, 0x6B, 0xFF, 0xCF, 0x2B, 0x02, 0x29, 0x07, 0x00, 0x66, 0x8A, 0xCA, 0x11,
            0x03, 0x00, 0x00, 0x00,
        ]
        for (tail, problem) in [
            (brokenMember, "the body is not valid gzip"),
            (Array("trailing garbage".utf8), "data after the end of the gzip stream"),
        ] {
            let body = one + tail
            let whole = decode([body], codings: ["gzip"])
            XCTAssertEqual(whole.problem, problem)
            XCTAssertEqual(Array(whole.output.prefix(3)), Array("one".utf8))
            for size in [1, 2, 17] {
                let pieces = stride(from: 0, to: body.count, by: size).map { Array(body[$0..<min($0 + size, body.count)]) }
                let decoded = decode(pieces, codings: ["gzip"])
                XCTAssertEqual(decoded.problem, problem, "pieces of \(size)")
                XCTAssertEqual(decoded.output, whole.output, "pieces of \(size)")
            }
        }
    }

    /// request-item: a space before a combining mark was kept (one Character, and no space), so
    /// a header written as "Name: value" read back with a space in front.
    func testAHeaderValueStartingWithACombiningMarkReadsBackAsItself() throws {
        let header = try HTTPHeader.parse("$C:\t\t\u{30A}")
        XCTAssertEqual(header.value, "\u{30A}")
        XCTAssertEqual(try HTTPHeader.parse(header.line), header)
        XCTAssertEqual(try HTTPHeader.parse("X-A: \u{30A}b ").value, "\u{30A}b")
    }

    /// plist-text: an integer past 64 bits was written, and read back as no number at all.
    func testAnIntegerTooLargeForAPropertyListIsRefused() throws {
        XCTAssertThrowsError(try PropertyListText.xml(try JSONText.parse("[1.10, 12345678901234567890]"))) { error in
            XCTAssertEqual(
                (error as? PropertyListText.Unrepresentable)?.message,
                "the integer 12345678901234567890 is too large for a property list")
        }
        XCTAssertNoThrow(try PropertyListText.xml(try JSONText.parse("[-9223372036854775808, 1.2e30]")))
    }

    /// input-list (by reading what its checksum check asks): Character.isHexDigit takes
    /// fullwidth digits, so a checksum no digest can equal was accepted, and the download failed
    /// only once the whole file had come.
    func testAChecksumIsASCIIHexDigits() throws {
        let fullwidth = String(repeating: "ab", count: 31) + "a\u{FF21}"
        XCTAssertThrowsError(try Checksum.parse("sha-256=" + fullwidth)) { error in
            XCTAssertEqual((error as? TransferFailure)?.message, "sha-256 checksum must be 64 hex digits")
        }
        let list = InputList(parsing: Array("https://files.example/a\n  checksum=sha-256=\(fullwidth)\n".utf8), name: "l")
        XCTAssertEqual(list.entries, [])
        XCTAssertEqual(list.problems.map(\.item), ["l:2"])
        XCTAssertEqual(try Checksum.parse("SHA256=" + String(repeating: "aB", count: 32)).hex, String(repeating: "ab", count: 32))
    }

    /// content-decoder: with stacked codings, the outer coding's error won over the inner one's
    /// that came earlier in the body, so the verdict depended on the size of the pieces.
    func testStackedCodingsReportTheFirstProblemWhateverThePieces() {
        let body: [UInt8] = [
            0x1F, 0x8B, 0x08, 0x00, 0xD2, 0x7C, 0x07, 0x6B, 0x02, 0xFF, 0xCB, 0xCF, 0xCF, 0x07, 0x00, 0x66, 0x8A, 0xCA,
            0x11, 0x03, 0x00, 0x00, 0x4B, 0x05, 0x00, 0xF1, 0x86, 0x6C, 0x7A, 0x03, 0x00, 0x00, 0x00, 0x1F, 0x8B, 0x08,
            0x00, 0xD2, 0x7C, 0x07, 0x6B, 0x02, 0xFF, 0x2B, 0x29, 0xCF, 0x07, 0x00, 0x66, 0x8A, 0xCA, 0x11, 0x03, 0x00,
            0x00, 0x00,
        ]
        let whole = decode([body], codings: ["deflate", "gzip"])
        for size in [1, 17] {
            let pieces = stride(from: 0, to: body.count, by: size).map { Array(body[$0..<min($0 + size, body.count)]) }
            let decoded = decode(pieces, codings: ["deflate", "gzip"])
            XCTAssertEqual(decoded.problem, whole.problem, "pieces of \(size)")
            XCTAssertEqual(decoded.output, whole.output, "pieces of \(size)")
        }
        XCTAssertEqual(whole.problem, "the body is not valid deflate")
    }

    /// resume-data: "&" followed by a combining mark is one Character, and was written raw into
    /// the property list, which then could not be read back.
    func testResumeDataWithAnAmpersandBeforeACombiningMarkReadsBack() throws {
        XCTAssertEqual(try PropertyListText.xml(.string("a &\u{650}b <\u{301}")).contains("a &amp;\u{650}b &lt;\u{301}"), true)
        let resume = ResumeData(
            url: "https://files.example/f", bytesReceived: 1,
            validators: EntityValidators(entityTag: "\"&\u{650}\"", lastModified: nil),
            tempFileName: "f.afpart", destination: "f", expectedLength: 2,
            headers: [HTTPHeader(name: "X-Team", value: "data &\u{650}p")])
        XCTAssertEqual(try ResumeData(propertyList: resume.propertyList()), resume)
    }

    /// resume-data: a byte that is not UTF-8 inside <integer> stopped the process in
    /// Foundation's XML reader; damaged resume data is refused, saying why.
    func testResumeDataThatIsNotUTF8IsRefused() {
        let plist =
            Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0">
                <dict>
                \t<key>NSURLSessionResumeBytesReceived</key>
                \t<integer>
                """.utf8) + [0xFD, 0x07, 0x00, 0x00] + Array("1000</integer>\n</dict>\n</plist>\n".utf8)
        XCTAssertThrowsError(try ResumeData(propertyList: Data(plist))) { error in
            XCTAssertEqual((error as? ResumeDataError)?.reason, "not UTF-8 text")
        }
    }

    private func decode(_ pieces: [[UInt8]], codings: [String]) -> (output: [UInt8], problem: String?) {
        let decoder = ContentDecoder(codings: codings)!
        var output: [UInt8] = []
        for piece in pieces {
            let problem = piece.withUnsafeBytes { bytes in
                decoder.decode(bytes) { decoded in
                    output.append(contentsOf: decoded)
                    return true
                }
            }
            if let problem { return (output, problem.words) }
        }
        return (output, decoder.finish()?.words)
    }
}
