@testable import AFGetRequest
import AFGetSupport
import AFGetKit
import XCTest

final class HeaderTests: XCTestCase {
    func testParsesUserHeaders() throws {
        XCTAssertEqual(try HTTPHeader.parse("X-Token:  abc "), HTTPHeader(name: "X-Token", value: "abc"))
        XCTAssertEqual(try HTTPHeader.parse("X-Empty:").line, "X-Empty;")
        XCTAssertEqual(try HTTPHeader.parse("Accept: a/b").line, "Accept: a/b")
    }

    /// Spaces and tabs go from either end, by scalars: a space before a combining mark stays
    /// out, the mark is kept; inner blanks and other Unicode spaces stay.
    func testTrimmingTakesSpacesAndTabsFromEitherEnd() {
        let rows: [(String, String)] = [
            ("", ""), (" ", ""), ("\t \t", ""), ("a", "a"), ("  a b  ", "a b"), ("\ta\t", "a"), (" \u{30A}", "\u{30A}"),
            ("é ", "é"), (" \u{00A0}x\u{00A0} ", "\u{00A0}x\u{00A0}"), ("日本 語\t", "日本 語"), ("x\r", "x\r"),
        ]
        for (text, trimmed) in rows {
            XCTAssertEqual(text.trimmingWhitespace(), trimmed, "\(text.unicodeScalars.map(\.value))")
            XCTAssertEqual(text[...].trimmingWhitespace(), trimmed, "a Substring too")
        }
    }

    func testRejectsMalformedHeaders() {
        for bad in ["NoColon", ": novalue", "Bad Name: x", "X-A: a\r\nInjected: 1"] {
            XCTAssertThrowsError(try HTTPHeader.parse(bad), bad) { error in
                XCTAssertEqual((error as? TransferFailure)?.kind, .usage)
            }
        }
    }

    /// What afget sends is masked by the look of the header's name (the user's own -H secrets);
    /// what the server sends only for credential headers: Access-Control-Allow-Credentials or a
    /// session timeout hold no secret, and were shown masked.
    func testVerboseMasksSecretsPrecisely() {
        XCTAssertEqual(HeaderMasking.mask("Authorization: Basic dXNlcjpwYXNz", outgoing: true), "Authorization: Basic ***")
        XCTAssertEqual(HeaderMasking.mask("proxy-authorization: Bearer abc", outgoing: true), "proxy-authorization: Bearer ***")
        XCTAssertEqual(HeaderMasking.mask("Cookie: a=b; c=d", outgoing: true), "Cookie: ***")
        XCTAssertEqual(HeaderMasking.mask("Authorization: tokenonly", outgoing: true), "Authorization: ***")
        XCTAssertEqual(HeaderMasking.mask("X-Api-Key: s3cret", outgoing: true), "X-Api-Key: ***")
        XCTAssertEqual(HeaderMasking.mask("Private-Token: s3cret", outgoing: true), "Private-Token: ***")
        XCTAssertEqual(HeaderMasking.mask("Accept: */*", outgoing: true), "Accept: */*")
        XCTAssertEqual(HeaderMasking.mask("GET / HTTP/1.1", outgoing: true), "GET / HTTP/1.1")

        XCTAssertEqual(HeaderMasking.mask("Set-Cookie: id=1", outgoing: false), "Set-Cookie: ***")
        XCTAssertEqual(HeaderMasking.mask("Authorization: Bearer echoed", outgoing: false), "Authorization: Bearer ***")
        XCTAssertEqual(
            HeaderMasking.mask("Access-Control-Allow-Credentials: true", outgoing: false),
            "Access-Control-Allow-Credentials: true")
        XCTAssertEqual(HeaderMasking.mask("X-Session-Timeout: 300", outgoing: false), "X-Session-Timeout: 300")
        XCTAssertEqual(
            HeaderMasking.mask("WWW-Authenticate: Basic realm=\"x\"", outgoing: false), "WWW-Authenticate: Basic realm=\"x\"",
            "a challenge is no secret")
    }

    func testResponseHeadLookups() {
        let head = ResponseHead(status: 200, reason: "OK", headers: [("content-length", "12"), ("ETag", "\"x\"")])
        XCTAssertEqual(head.contentLength, 12)
        XCTAssertEqual(head.value(of: "etag"), "\"x\"")
        XCTAssertNil(head.value(of: "ETagX"))
        XCTAssertNil(head.value(of: "ETAF"), "same length, one letter apart")
        XCTAssertEqual(
            ResponseHead(headers: [("Content-Encoding", "gzip"), ("CONTENT-ENCODING", "br")]).contentEncodings,
            ["gzip", "br"])
        XCTAssertTrue(head.isSuccess)
        XCTAssertNil(ResponseHead(status: 200, headers: [("Content-Length", "-1")]).contentLength)
    }

    /// RFC 9112 §6.3: repeated values that agree are one length; any other list is unusable.
    func testContentLengthValuesMustAgreeAndBeCounts() {
        func head(_ values: String...) -> ResponseHead {
            ResponseHead(status: 200, headers: values.map { ("Content-Length", $0) })
        }
        XCTAssertEqual(head("42", "42").contentLength, 42)
        XCTAssertEqual(head("42, 42").contentLength, 42)
        XCTAssertNil(head("42, 42").contentLengthProblem)
        XCTAssertNil(head().contentLengthProblem)
        XCTAssertEqual(said(head("3", "5").contentLengthProblem), "conflicting Content-Length values: 3, 5")
        XCTAssertNil(head("3", "5").contentLength)
        for bad in ["-1", "+5", "0x10", "", "1 2", "99999999999999999999"] {
            XCTAssertEqual(said(head(bad).contentLengthProblem), "malformed Content-Length \"\(bad)\"", bad)
        }
    }

    /// A head read a line at a time (as the transfer reads one) says what the same fields given
    /// at once say: its length and codings are worked out as the fields arrive, not when asked.
    func testHeadReadLineByLineFramesItsBodyAsTheWholeFields() {
        typealias Line = (name: String?, value: String)  // no name: a folded continuation of the last
        let rows: [(lines: [Line], length: Int64?, problem: String?, codings: [String])] = [
            ([], nil, nil, []),
            ([("Content-Type", "text/html")], nil, nil, []),
            ([("Content-Length", "12"), ("ETag", "\"x\"")], 12, nil, []),
            ([("content-LENGTH", " 7 ")], 7, nil, []),
            ([("Content-Length", "3"), ("Server", "x"), ("Content-Length", "3")], 3, nil, []),
            ([("Content-Length", "3"), ("Content-Length", "5")], nil, "conflicting Content-Length values: 3, 5", []),
            ([("Content-Length", "3,"), (nil, "3")], 3, nil, []),
            ([("Content-Length", "3"), (nil, "4")], nil, "malformed Content-Length \"3 4\"", []),
            ([("Content-Length", "x")], nil, "malformed Content-Length \"x\"", []),
            ([("Content-Length", "0")], 0, nil, []),
            ([("Content-Length", "007")], 7, nil, []),
            ([("Content-Length", "999999999999999999")], 999_999_999_999_999_999, nil, []),
            ([("Content-Length", "9223372036854775807")], Int64.max, nil, []),
            ([("Content-Length", "9223372036854775808")], nil, "malformed Content-Length \"9223372036854775808\"", []),
            ([("Content-Length", "12"), ("Content-Length", " 12,12")], 12, nil, []),
            ([("Content-Length", "12"), ("Content-Length", "13, 12")], nil, "conflicting Content-Length values: 12, 13, 12", []),
            ([("Content-Encoding", "gzip"), ("Content-Length", "10")], 10, nil, ["gzip"]),
            (
                [("Content-Encoding", "gzip,"), (nil, "BR"), ("CONTENT-ENCODING", "identity, zstd")], nil, nil,
                ["gzip", "br", "zstd"]
            ),
            ([("X-Content-Length", "5"), ("Content-Encodings", "gzip")], nil, nil, []),
            ([(nil, "orphan"), ("Content-Length", "1")], 1, nil, []),
        ]
        for row in rows {
            var read = ResponseHead(status: 200)
            var fields: [(name: String, value: String)] = []
            for line in row.lines {
                if let name = line.name {
                    read.add(name: name, value: line.value)
                    fields.append((name, line.value))
                } else {
                    read.continueLastValue(with: line.value)
                    if let last = fields.popLast() { fields.append((last.name, last.value + " " + line.value)) }
                }
            }
            let whole = ResponseHead(status: 200, headers: fields)
            let why = "\(row.lines)"
            XCTAssertEqual(read, whole, why)
            for head in [read, whole] {
                XCTAssertEqual(head.contentLength, row.length, why)
                XCTAssertEqual(said(head.contentLengthProblem), row.problem, why)
                XCTAssertEqual(head.contentEncodings, row.codings, why)
                XCTAssertEqual(head.isEncoded, !row.codings.isEmpty, why)
            }
        }
    }

    /// A Content-Length problem as the item's failure says it.
    private func said(_ problem: ResponseFailure?) -> String? {
        problem.map { FailureReason.response($0).words }
    }
}
