@testable import AFGetRequest
@testable import AFGetSupport
@testable import AFGetKit
import XCTest

/// The request serializer on its own: query and form encoding, JSON and property-list text,
/// multipart escaping, items, methods and header precedence.
final class QueryEncodingTests: XCTestCase {
    private func encode(_ json: String, _ format: QueryEncoding.ArrayFormat = .brackets) throws -> String {
        guard case .dictionary(let members) = try JSONText.parse(json) else { throw JSONText.SyntaxError(message: "", offset: 0) }
        return QueryEncoding(arrayFormat: format).encode(members)
    }

    func testNestedDictionariesAreSortedAndBracketed() throws {
        XCTAssertEqual(try encode(#"{"b":"2","a":{"z":"1","y":{"x":"0"}}}"#), "a%5By%5D%5Bx%5D=0&a%5Bz%5D=1&b=2")
    }

    func testArraysInEachFormat() throws {
        let json = #"{"t":["x","y"],"n":[[1,2]]}"#
        XCTAssertEqual(try encode(json, .brackets), "n%5B%5D%5B%5D=1&n%5B%5D%5B%5D=2&t%5B%5D=x&t%5B%5D=y")
        XCTAssertEqual(try encode(json, .indices), "n%5B0%5D%5B0%5D=1&n%5B0%5D%5B1%5D=2&t%5B0%5D=x&t%5B1%5D=y")
        XCTAssertEqual(try encode(json, .repeat), "n=1&n=2&t=x&t=y")
        XCTAssertEqual(try encode(#"{"empty":[],"none":{}}"#), "")
    }

    func testNullIsTheBareKeyAndBooleansAreNumbers() throws {
        XCTAssertEqual(try encode(#"{"flag":null,"on":true,"off":false,"n":-1.50}"#), "flag&n=-1.50&off=0&on=1")
    }

    func testEveryReservedCharacterIsEscapedButQuestionMarkAndSlash() {
        let reserved = ":#[]@!$&'()*+,;=%"
        XCTAssertEqual(QueryEncoding.escape(reserved), "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%25")
        XCTAssertEqual(QueryEncoding.escape("a/b?c"), "a/b?c")
        XCTAssertEqual(QueryEncoding.escape("AZaz09-._~"), "AZaz09-._~")
        XCTAssertEqual(QueryEncoding.escape("a b\n\"<>\\^`{|}"), "a%20b%0A%22%3C%3E%5C%5E%60%7B%7C%7D")
    }

    func testAPathSegmentEscapesTheQueryDelimitersToo() {
        XCTAssertEqual(QueryEncoding.escape("a?b/c d"), "a?b/c%20d")
        XCTAssertEqual(QueryEncoding.escapePathSegment("a?b/c d#~.txt"), "a%3Fb%2Fc%20d%23~.txt")
    }

    func testUnicodeAndEmojiAreEscapedByteForByteWithoutSplittingClusters() {
        XCTAssertEqual(QueryEncoding.escape("é"), "%C3%A9")
        XCTAssertEqual(QueryEncoding.escape("e\u{301}"), "e%CC%81", "a combining accent stays with its letter")
        XCTAssertEqual(QueryEncoding.escape("👍🏽"), "%F0%9F%91%8D%F0%9F%8F%BD")
        XCTAssertEqual(QueryEncoding.escape("🇫🇷"), "%F0%9F%87%AB%F0%9F%87%B7")
        XCTAssertEqual(QueryEncoding.escape("👨‍👩‍👧"), "%F0%9F%91%A8%E2%80%8D%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7")
        let long = String(repeating: "👨‍👩‍👧", count: 40)
        XCTAssertEqual(QueryEncoding.escape(long).removingPercentEncoding, long)
    }
}

final class JSONTextTests: XCTestCase {
    func testParsingKeepsOrderAndNumberSpelling() throws {
        let value = try JSONText.parse(#" {"z": 1.10, "a": [true, null, "x\u00e9\ud83d\ude00"], "big": 123456789012345678901} "#)
        XCTAssertEqual(JSONText.compact(value), #"{"z":1.10,"a":[true,null,"xé😀"],"big":123456789012345678901}"#)
    }

    func testMalformedJSONIsRefused() {
        for text in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"unterminated", "tru", "{} x", "\"\u{01}\""] {
            XCTAssertThrowsError(try JSONText.parse(text), text)
        }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try JSONText.parse(deep), "nesting is bounded")
    }

    func testPrettyPrinting() throws {
        let value = try JSONText.parse(#"{"a":[1,{}],"b":"q\"\n"}"#)
        XCTAssertEqual(
            JSONText.pretty(value, colored: false), "{\n    \"a\": [\n        1,\n        {}\n    ],\n    \"b\": \"q\\\"\\n\"\n}")
        XCTAssertTrue(JSONText.pretty(value, colored: true).contains("\u{1B}[34m\"a\"\u{1B}[0m"))
    }

    func testPropertyListText() throws {
        let xml = try PropertyListText.xml(try JSONText.parse(#"{"k":"<&>","n":2,"r":2.5,"t":true,"l":["x"]}"#))
        XCTAssertTrue(xml.contains("<key>k</key>\n\t<string>&lt;&amp;&gt;</string>"), xml)
        XCTAssertTrue(xml.contains("<integer>2</integer>") && xml.contains("<real>2.5</real>") && xml.contains("<true/>"), xml)
        XCTAssertThrowsError(try PropertyListText.xml(.null))
    }
}

final class RequestItemTests: XCTestCase {
    func testTheFirstSeparatorWinsAndTheLongerOneAtATie() throws {
        XCTAssertEqual(try RequestItem.parse("a=b:c"), .parameter(name: "a", value: .string("b:c")))
        XCTAssertEqual(try RequestItem.parse("X-Token:a=b"), .header(HTTPHeader(name: "X-Token", value: "a=b")))
        XCTAssertEqual(try RequestItem.parse("n:=5"), .parameter(name: "n", value: .number("5")))
        XCTAssertEqual(try RequestItem.parse("q==x=y"), .query(name: "q", value: "x=y"))
        XCTAssertEqual(try RequestItem.parse("email=me@example.org"), .parameter(name: "email", value: .string("me@example.org")))
        XCTAssertEqual(try RequestItem.parse("doc@/tmp/a=b.txt"), .file(field: "doc", path: "/tmp/a=b.txt"))
        XCTAssertEqual(try RequestItem.parse("empty="), .parameter(name: "empty", value: .string("")))
    }

    func testMalformedItemsAreUsageErrors() {
        for item in ["word", "=value", ":value", "n:=nope", "f@", "Bad Header:x"] {
            XCTAssertThrowsError(try RequestItem.parse(item), item) { error in
                XCTAssertEqual((error as? TransferFailure)?.kind, .usage)
            }
        }
    }
}

final class RequestSerializerTests: XCTestCase {
    private func items(_ arguments: [String]) throws -> [RequestItem] {
        try arguments.map { try RequestItem.parse($0) }
    }

    func testTheMethodIsGetWithoutABodyAndPostWithOne() throws {
        let serializer = RequestSerializer()
        XCTAssertEqual(try serializer.request(method: nil, url: "http://h/", items: items(["q==1"])).method, "GET")
        XCTAssertEqual(try serializer.request(method: nil, url: "http://h/", items: items(["a=1"])).method, "POST")
        XCTAssertEqual(
            try serializer.request(
                method: nil, url: "http://h/", items: [],
                rawBody: RequestSerializer.RawBody(.bytes(Array("x".utf8)), contentType: "text/plain")
            ).method, "POST")
    }

    func testQueryMethodsPutParametersInTheQuery() throws {
        for method in ["GET", "HEAD", "DELETE"] {
            let request = try RequestSerializer().request(method: method, url: "http://h/p?x=1#frag", items: items(["a=b c"]))
            XCTAssertEqual(request.url.absoluteString, "http://h/p?x=1&a=b%20c#frag", method)
            XCTAssertEqual(request.body, .none)
        }
    }

    func testDefaultHeadersGiveWayToTheUsers() throws {
        let serializer = RequestSerializer(headers: [HTTPHeader(name: "accept", value: "text/plain")], bodyFormat: .json)
        let request = try serializer.request(method: nil, url: "http://h/", items: items(["a=1", "Content-Type:text/x-json"]))
        XCTAssertEqual(request.headers.map(\.line), ["accept: text/plain", "Content-Type: text/x-json"])
        XCTAssertEqual(request.body, .bytes(Array(#"{"a":"1"}"#.utf8)))
    }

    func testConflictingItemsAreRefused() throws {
        XCTAssertThrowsError(
            try RequestSerializer(bodyFormat: .json).request(method: nil, url: "http://h/", items: items(["f@x"])))
        XCTAssertThrowsError(
            try RequestSerializer().request(
                method: nil, url: "http://h/", items: items(["a=1"]),
                rawBody: RequestSerializer.RawBody(.bytes(Array("x".utf8)), contentType: "text/plain")))
        XCTAssertThrowsError(try RequestSerializer().request(method: "GET", url: "http://h/", items: items(["f@x"])))
        XCTAssertThrowsError(
            try RequestSerializer(bodyFormat: .plist).request(method: nil, url: "http://h/", items: items(["n:=null"])))
    }

    func testMultipartNamesCannotInjectHeaders() {
        let form = MultipartForm(
            fields: [
                .text(name: "a\"\r\nX-Evil: 1", value: "v"),
                .file(name: "f", path: "/dev/null", filename: "x\".txt\r\n", contentType: "text/plain"),
            ],
            boundary: "B")
        guard case .parts(let parts) = form.body, case .bytes(let first) = parts[0], case .bytes(let second) = parts[1] else {
            return XCTFail("a multipart body is made of parts")
        }
        XCTAssertEqual(
            String(decoding: first, as: UTF8.self),
            "--B\r\nContent-Disposition: form-data; name=\"a%22%0D%0AX-Evil: 1\"\r\n\r\nv\r\n")
        XCTAssertEqual(
            String(decoding: second, as: UTF8.self),
            "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x%22.txt%0D%0A\"\r\nContent-Type: text/plain\r\n\r\n")
    }

    /// A URL needs "://", wherever its first colon is; one without it is refused by name.
    func testAURLNeedsASchemeSeparator() throws {
        XCTAssertEqual(try RequestSerializer.parseURL("http://h:8080/a:b").port, 8080)
        for bad in ["example.org/f.bin", "mailto:a@b", "http:/h/f", "http:h:/", "a:b:/c"] {
            XCTAssertThrowsError(try RequestSerializer.parseURL(bad), bad) { error in
                XCTAssertEqual("\(error)", "\(bad): not a URL: it must start with http:// or https://")
            }
        }
    }

    /// libcurl fails a request head over 1 MiB as "Out of memory"; afget says what is wrong first.
    func testARequestTooLargeForLibcurlIsAUsageError() throws {
        let limit = HTTPRequest.largestURLAndHeaders
        let base = "http://h/f?q="
        XCTAssertNoThrow(try RequestSerializer.parseURL(base + String(repeating: "a", count: limit - base.utf8.count)))
        let longURL = base + String(repeating: "a", count: limit)
        XCTAssertThrowsError(try RequestSerializer.parseURL(longURL)) { error in
            XCTAssertEqual((error as? ItemFailure)?.exitCode, 2)
            XCTAssertTrue(
                "\(error)".hasSuffix("URL too long: \(limit + base.utf8.count) bytes, more than a request can carry (\(limit))"))
        }
        let header = HTTPHeader(name: "X-Big", value: String(repeating: "b", count: limit / 2))
        XCTAssertNoThrow(try RequestSerializer(headers: [header]).request(url: "http://h/f"))
        XCTAssertThrowsError(try RequestSerializer(headers: [header, header]).request(url: "http://h/f")) { error in
            XCTAssertEqual((error as? ItemFailure)?.exitCode, 2)
            XCTAssertTrue("\(error)".hasPrefix("http://h/f: the URL and headers come to "), "\(error)")
        }
        XCTAssertThrowsError(
            try RequestSerializer().request(method: "POST", url: "http://h/f", items: [.header(header), .header(header)]))
    }

    func testResponseValidation() throws {
        let serializer = ResponseSerializer(
            acceptableStatusCodes: try ResponseSerializer.parseStatusCodes("200-299,304"),
            acceptableContentTypes: ["application/json", "text/*"])
        func head(_ status: Int, _ type: String?) -> ResponseHead {
            ResponseHead(status: status, headers: type.map { [("Content-Type", $0)] } ?? [])
        }
        XCTAssertNil(serializer.validate(head(200, "application/json; charset=utf-8"), sentCredentials: false))
        XCTAssertNil(serializer.validate(head(304, "text/html"), sentCredentials: false))
        XCTAssertEqual(serializer.validate(head(200, "image/png"), sentCredentials: false)?.kind, .protocolViolation)
        XCTAssertEqual(serializer.validate(head(200, nil), sentCredentials: false)?.kind, .protocolViolation)
        XCTAssertEqual(serializer.validate(head(404, "text/plain"), sentCredentials: false)?.kind, .httpStatus)
        XCTAssertEqual(serializer.validate(head(302, "text/plain"), sentCredentials: false)?.kind, .httpStatus)
        XCTAssertEqual(serializer.validate(head(401, "text/plain"), sentCredentials: true)?.kind, .authentication)
        XCTAssertEqual(serializer.validate(head(401, "text/plain"), sentCredentials: false)?.kind, .httpStatus)
        for bad in ["", "2xx", "300-200", "99", "200-", "1000"] {
            XCTAssertThrowsError(try ResponseSerializer.parseStatusCodes(bad), bad)
        }
    }
}
