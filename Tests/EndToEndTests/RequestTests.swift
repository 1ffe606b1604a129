import Foundation
import TestServer
import XCTest

/// `afget request`: items, body serializers, response validation and output, against /echo,
/// which answers with the request it received as JSON.
final class RequestTests: ServerTestCase {
    /// Runs `afget request ARGS` and returns the echo document it printed.
    private func echo(_ arguments: [String], input: Data? = nil, file: StaticString = #filePath, line: UInt = #line)
        throws -> [String: Any]
    {
        let result = try Afget.run(["request"] + arguments, in: directory, input: input)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stdoutText,
            file: file, line: line)
    }

    private func headers(_ echo: [String: Any]) -> [String: String] {
        echo["headers"] as? [String: String] ?? [:]
    }

    /// A request goes through the retry loop downloads use, and its last failure is worded the
    /// same: it says how many attempts were made.
    func testARequestThatKeepsFailingSaysHowManyAttemptsItTook() throws {
        let result = try Afget.run(
            ["request", "--retry", "2", "--retry-delay", "0", server.url("/flaky/r.json?size=5000&fail=9&mode=drop")],
            in: directory)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "retrying in").count - 1, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("(after 3 attempts)"), result.stderr)
        XCTAssertEqual(server.log.all.count, 3)
    }

    /// A POST whose exchange broke after it went out is not sent again: the server may have
    /// acted on it. It is when the server says it did nothing (503), or when --retry is given.
    func testAPostThatMayHaveArrivedIsNotSentAgain() throws {
        let broken = server.url("/flaky/order.json?size=5000&fail=9&mode=drop")
        let once = try Afget.run(["request", "--retry-delay", "0", "POST", broken, "item=1"], in: directory)
        XCTAssertEqual(once.status, 4, once.stderr)
        XCTAssertEqual(server.log.all.count, 1)
        XCTAssertTrue(once.stderr.contains("not sent again: the server may have acted on this POST"), once.stderr)
        XCTAssertFalse(once.stderr.contains("retrying"), once.stderr)

        let asked = try Afget.run(["request", "--retry", "2", "--retry-delay", "0", "POST", broken, "item=1"], in: directory)
        XCTAssertEqual(asked.status, 4, asked.stderr)
        XCTAssertTrue(asked.stderr.contains("(after 3 attempts)"), asked.stderr)
        XCTAssertEqual(server.log.all.count, 4)

        let busy = try Afget.run(
            ["request", "POST", server.url("/flaky/busy.json?size=10&fail=9&mode=503&retryafter=0"), "item=1"], in: directory)
        XCTAssertEqual(busy.status, 8, busy.stderr)
        XCTAssertEqual(
            server.log.all.count, 10, "503 with Retry-After: the server did nothing and said when, so the default 5 retries apply"
        )
    }

    /// People debugging an API want the 500 and its body at once, as curl and httpie show
    /// them: a status is not retried unless --retry asks (afget request waited 1+2+4+8+16 s).
    func testAnHTTPErrorIsShownAtOnceUnlessRetriesAreAskedFor() throws {
        let url = server.url("/status/500")
        let result = try Afget.run(["request", url], in: directory)
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertEqual(result.stdoutText, "error page 500\n")
        XCTAssertEqual(result.stderrLines, ["afget: \(url): HTTP 500 Internal Server Error"])
        XCTAssertEqual(server.log.all.count, 1, "not retried")

        let unsaid = server.url("/flaky/a.json?size=10&fail=1&mode=503")
        let busy = try Afget.run(["request", unsaid], in: directory)
        XCTAssertEqual(busy.status, 8, busy.stderr)
        XCTAssertEqual(busy.stderrLines, ["afget: \(unsaid): HTTP 503 Service Unavailable"], "no Retry-After: not retried")

        let asked = try Afget.run(["request", "--retry", "1", "--retry-delay", "0", url], in: directory)
        XCTAssertEqual(asked.status, 8, asked.stderr)
        XCTAssertEqual(server.log.all.count, 4, "--retry 1: once more")
    }

    /// A 429 or 503 whose Retry-After says when is waited out, and a failure on the way (a
    /// connection dropped) is retried, as before.
    func testARequestWaitsWhenTheServerSaysWhenAndRetriesBrokenConnections() throws {
        for mode in ["429", "503"] {
            let url = server.url("/flaky/\(mode).json?size=10&fail=1&mode=\(mode)&retryafter=0")
            let result = try Afget.run(["request", url], in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout.count, 10)
            XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("retrying in 0.0 s (attempt 2)"), result.stderr)
        }
        let dropped = try Afget.run(
            ["request", "--retry-delay", "0", server.url("/flaky/d.json?size=5000&fail=1&mode=drop")], in: directory)
        XCTAssertEqual(dropped.status, 0, dropped.stderr)
        XCTAssertEqual(dropped.stdout.count, 5000)
        XCTAssertEqual(server.log.all.count, 6)
    }

    func testItemsOfEveryKindGoWhereTheySay() throws {
        let echo = try echo([
            "--json", server.url("/echo"), "a=1", "n:=5", "tags:=[\"x\",true,null]", "q==two words",
            "X-Trace:abc",
        ])
        XCTAssertEqual(echo["method"] as? String, "POST")
        XCTAssertEqual(echo["query"] as? String, "q=two%20words")
        XCTAssertEqual(headers(echo)["x-trace"], "abc")
        XCTAssertEqual(headers(echo)["content-type"], "application/json")
        XCTAssertEqual(headers(echo)["accept"], "application/json, */*;q=0.5")
        XCTAssertEqual(echo["body"] as? String, #"{"a":"1","n":5,"tags":["x",true,null]}"#)
    }

    func testParametersOfAGetGoInTheQueryByAFNetworkingsRules() throws {
        let tree = #"user:={"name":"Zoë & co","tags":["a","b"],"admin":false,"note":null}"#
        let brackets = try echo(["GET", server.url("/echo?x=1"), tree])
        XCTAssertEqual(brackets["method"] as? String, "GET")
        XCTAssertEqual(
            brackets["query"] as? String,
            "x=1&user%5Badmin%5D=0&user%5Bname%5D=Zo%C3%AB%20%26%20co&user%5Bnote%5D&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b"
        )
        XCTAssertEqual(brackets["bodyLength"] as? Int, 0)
        let indices = try echo(["--array-format", "indices", "GET", server.url("/echo"), "t:=[\"a\",\"b\"]"])
        XCTAssertEqual(indices["query"] as? String, "t%5B0%5D=a&t%5B1%5D=b")
        let repeated = try echo(["--array-format", "repeat", "DELETE", server.url("/echo"), "t:=[\"a\",\"b\"]"])
        XCTAssertEqual(repeated["method"] as? String, "DELETE")
        XCTAssertEqual(repeated["query"] as? String, "t=a&t=b")
    }

    func testAFormBodyIsTheDefaultForOtherMethods() throws {
        let echo = try echo(["PUT", server.url("/echo"), "b=x&y=z", "a=1/2?"])
        XCTAssertEqual(echo["method"] as? String, "PUT")
        XCTAssertEqual(headers(echo)["content-type"], "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(echo["body"] as? String, "a=1/2?&b=x%26y%3Dz")
    }

    func testAPropertyListBody() throws {
        let echo = try echo(["--plist", server.url("/echo"), "name=a<b", "n:=3", "ok:=true"])
        XCTAssertEqual(headers(echo)["content-type"], "application/x-plist")
        let body = try XCTUnwrap(echo["body"] as? String)
        let parsed = try PropertyListSerialization.propertyList(from: Data(body.utf8), format: nil) as? [String: Any]
        XCTAssertEqual(parsed?["name"] as? String, "a<b")
        XCTAssertEqual(parsed?["n"] as? Int, 3)
        XCTAssertEqual(parsed?["ok"] as? Bool, true)
    }

    func testAMultipartFormWithTwoFilesAndFields() throws {
        let text = Data("first file\n".utf8)
        let binary = Data((0..<3000).map { UInt8($0 % 251) })
        try text.write(to: directory.appendingPathComponent("notes.txt"))
        try binary.write(to: directory.appendingPathComponent("blob.bin"))
        let echo = try echo([server.url("/echo"), "title=hello", "doc@notes.txt", "a\"b@blob.bin"])
        XCTAssertEqual(echo["method"] as? String, "POST")
        let contentType = try XCTUnwrap(headers(echo)["content-type"])
        XCTAssertTrue(contentType.hasPrefix("multipart/form-data; boundary="), contentType)
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        var expected = Data()
        func add(_ text: String) { expected.append(Data(text.utf8)) }
        add("--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n")
        add(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\n"
        )
        expected.append(text)
        add("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"blob.bin\"\r\n")
        add("Content-Type: application/octet-stream\r\n\r\n")
        expected.append(binary)
        add("\r\n--\(boundary)--\r\n")
        XCTAssertEqual(echo["bodyLength"] as? Int, expected.count)
        XCTAssertEqual(echo["bodySHA256"] as? String, sha256Hex(expected))
    }

    /// Items name nested parameters as AFNetworking writes them: `tags[]=a tags[]=b` is one
    /// array of both (only the last was sent), `user[id]=7` a member of `user`, in every body
    /// format.
    func testRepeatedArrayItemsAreAllSent() throws {
        let items = ["tags[]=a", "user[id]=7", "tags[]=b", "user[name]=Zoë"]
        let form = try echo(["POST", server.url("/echo")] + items)
        XCTAssertEqual(form["body"] as? String, "tags%5B%5D=a&tags%5B%5D=b&user%5Bid%5D=7&user%5Bname%5D=Zo%C3%AB")
        let indices = try echo(["--array-format", "indices", server.url("/echo"), "tags[]=a", "tags[]=b"])
        XCTAssertEqual(indices["body"] as? String, "tags%5B0%5D=a&tags%5B1%5D=b")
        let json = try echo(["--json", server.url("/echo")] + items + ["list:=[1]", "list[]=2", "odd[=x", "[y]=z"])
        XCTAssertEqual(
            json["body"] as? String,
            #"{"tags":["a","b"],"user":{"id":"7","name":"Zoë"},"list":[1,"2"],"odd[":"x","[y]":"z"}"#)
        let multipart = try echo(["--multipart", server.url("/echo"), "tags[]=a", "tags[]=b"])
        let body = try XCTUnwrap(multipart["body"] as? String)
        XCTAssertTrue(body.contains("name=\"tags[]\"\r\n\r\na\r\n"), body)
        XCTAssertTrue(body.contains("name=\"tags[]\"\r\n\r\nb\r\n"), body)
    }

    func testUserHeadersWinOverDefaults() throws {
        let echo = try echo([
            "--json", "-H", "Accept: text/plain", server.url("/echo"), "a=1",
            "Content-Type:application/vnd.api+json",
        ])
        XCTAssertEqual(headers(echo)["content-type"], "application/vnd.api+json")
        XCTAssertEqual(headers(echo)["accept"], "text/plain")
    }

    func testRawBodiesFromAFileAndFromStandardInput() throws {
        let payload = Data((0..<100_000).map { UInt8($0 % 256) })
        try payload.write(to: directory.appendingPathComponent("body.bin"))
        let fromFile = try echo(["--data-binary", "@body.bin", "--content-type", "text/csv", server.url("/echo")])
        XCTAssertEqual(fromFile["method"] as? String, "POST")
        XCTAssertEqual(headers(fromFile)["content-type"], "text/csv")
        XCTAssertEqual(fromFile["bodySHA256"] as? String, sha256Hex(payload))
        let fromInput = try echo(["PUT", "--data-binary", "@-", server.url("/echo")], input: payload)
        XCTAssertEqual(fromInput["bodySHA256"] as? String, sha256Hex(payload))
        XCTAssertEqual(headers(fromInput)["content-type"], "application/x-www-form-urlencoded", "as curl sends it")
    }

    /// curl's body options, as curl 7.88 sends them: `-d` is a form, a file read for it loses
    /// its CR and LF bytes, `--data-binary` keeps every byte, `--data-urlencode` encodes, the
    /// pieces are joined with & in the order typed; `--json` pieces are joined as they are, and
    /// say JSON both ways. The server's own record of the bytes and headers is what is checked.
    func testCurlsBodyOptionsAreSentAsCurlSendsThem() throws {
        let form = try echo(["-d", "a=1&b=2", server.url("/echo")])
        XCTAssertEqual(form["method"] as? String, "POST")
        XCTAssertEqual(headers(form)["content-type"], "application/x-www-form-urlencoded")
        XCTAssertEqual(form["body"] as? String, "a=1&b=2")

        let lines = Data("a=1\r\nb=2\n".utf8)
        try lines.write(to: directory.appendingPathComponent("form.txt"))
        let joined = try echo([
            "-d", "@form.txt", "--data-urlencode", "c=x y&z", "--data-raw", "@raw", "--data-binary", "@form.txt",
            "--data-urlencode", "@form.txt", server.url("/echo"),
        ])
        let expected = "a=1b=2&c=x%20y%26z&@raw&a=1\r\nb=2\n&a%3D1%0D%0Ab%3D2%0A"
        XCTAssertEqual(joined["body"] as? String, expected)
        XCTAssertEqual(joined["bodySHA256"] as? String, sha256Hex(Data(expected.utf8)))
        XCTAssertEqual(headers(joined)["content-type"], "application/x-www-form-urlencoded")

        let json = try echo(["PUT", server.url("/echo"), "--json", #"{"drink":"#, "--json", #" "coffee"}"#])
        XCTAssertEqual(json["method"] as? String, "PUT")
        XCTAssertEqual(json["body"] as? String, #"{"drink": "coffee"}"#)
        XCTAssertEqual(headers(json)["content-type"], "application/json")
        XCTAssertEqual(headers(json)["accept"], "application/json")

        let piped = try echo(["--json", "@-", server.url("/echo")], input: Data("[1,\n2]\n".utf8))
        XCTAssertEqual(piped["body"] as? String, "[1,\n2]\n", "byte for byte")
        XCTAssertEqual(headers(piped)["content-type"], "application/json")

        let typed = try echo(["-H", "Content-Type: text/plain", "-d", "x", server.url("/echo"), "Accept:text/csv"])
        XCTAssertEqual(headers(typed)["content-type"], "text/plain", "the user's header wins")
        XCTAssertEqual(headers(typed)["accept"], "text/csv")
    }

    func testAStatusOutsideTheAcceptedOnesPrintsTheBodyAndExits8() throws {
        let failed = try Afget.run(["request", server.url("/status/404")], in: directory)
        XCTAssertEqual(failed.status, 8)
        XCTAssertEqual(failed.stdoutText, "error page 404\n")
        XCTAssertEqual(failed.stderrLines, ["afget: \(server.url("/status/404")): HTTP 404 Not Found"])
        let accepted = try Afget.run(["request", "--accept-status", "200-299,404", server.url("/status/404")], in: directory)
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        let narrow = try Afget.run(["request", "--accept-status", "204", server.url("/echo")], in: directory)
        XCTAssertEqual(narrow.status, 8)
    }

    func testAnAcceptedStatusThatIsUsuallyRetriedIsFinal() throws {
        let accepted = try Afget.run(["request", "--accept-status", "503", server.url("/status/503")], in: directory)
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertEqual(accepted.stdoutText, "error page 503\n")
        XCTAssertEqual(server.log.all.count, 1, "not retried")
        let retried = try Afget.run(["request", "--retry", "1", "--retry-delay", "0", server.url("/status/503")], in: directory)
        XCTAssertEqual(retried.status, 8)
        XCTAssertEqual(server.log.all.count, 3, "retried once when not accepted")
        XCTAssertEqual(
            retried.stderrLines,
            [
                "afget: \(server.url("/status/503")): HTTP 503 Service Unavailable; retrying in 0.0 s (attempt 2)",
                "afget: \(server.url("/status/503")): HTTP 503 Service Unavailable",
            ], "the retry line gives the status line as the last line does")
    }

    func testAnUnacceptableContentTypeExits7() throws {
        let result = try Afget.run(["request", "--accept-type", "text/*", server.url("/echo")], in: directory)
        XCTAssertEqual(result.status, 7)
        XCTAssertTrue(result.stderr.contains("unacceptable content type \"application/json\""), result.stderr)
        let json = try Afget.run(["request", "--accept-type", "application/json", server.url("/echo")], in: directory)
        XCTAssertEqual(json.status, 0, json.stderr)
    }

    func testIncludePrintsTheStatusLineAndHeadersFirst() throws {
        let result = try Afget.run(["request", "-i", server.url("/status/404"), "--accept-status", "404"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.hasPrefix("HTTP/1.1 404 Not Found\n"), result.stdoutText)
        XCTAssertTrue(
            result.stdoutText.hasSuffix("content-length: 15\n\nerror page 404\n")
                || result.stdoutText.hasSuffix("Content-Length: 15\n\nerror page 404\n"), result.stdoutText)
    }

    func testSavingTheBodyToAFile() throws {
        let result = try Afget.run(["request", "-o", "out.json", server.url("/echo")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, "")
        let saved = try Data(contentsOf: directory.appendingPathComponent("out.json"))
        XCTAssertEqual((try JSONSerialization.jsonObject(with: saved) as? [String: Any])?["method"] as? String, "GET")

        let full = try Afget.run(["request", "-o", "/dev/full", server.url("/echo")], in: directory)
        XCTAssertEqual(full.status, 3)
        XCTAssertEqual(
            full.stderrLines, ["afget: \(server.url("/echo")): cannot write /dev/full: No space left on device"],
            "one line naming the URL and the file once")
    }

    func testBadItemsAreUsageErrorsNamingTheItem() throws {
        let json = try Afget.run(["request", server.url("/echo"), "n:={oops"], in: directory)
        XCTAssertEqual(json.status, 2)
        XCTAssertEqual(json.stderrLines.count, 1)
        XCTAssertTrue(json.stderr.contains("n:={oops"), json.stderr)
        let bare = try Afget.run(["request", server.url("/echo"), "justaword"], in: directory)
        XCTAssertEqual(bare.status, 2)
        XCTAssertTrue(bare.stderr.contains("\"justaword\""), bare.stderr)
        let fileInGet = try Afget.run(["request", "GET", server.url("/echo"), "f@missing.txt"], in: directory)
        XCTAssertEqual(fileInGet.status, 2)
        let missing = try Afget.run(["request", server.url("/echo"), "f@missing.txt"], in: directory)
        XCTAssertEqual(missing.status, 3, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("missing.txt"), missing.stderr)
        // A raw body from a missing file is the same local file error as a file field's.
        let missingBody = try Afget.run(["request", "POST", server.url("/echo"), "-d", "@missing.txt"], in: directory)
        XCTAssertEqual(missingBody.status, 3, missingBody.stderr)
        XCTAssertEqual(missingBody.stderrLines, ["afget: cannot read missing.txt: No such file or directory"])
        XCTAssertEqual(server.log.all.count, 0)
    }

    func testPrettyColouredJSONOnATerminal() throws {
        let command = "\(Afget.binary.path) request \(server.url("/echo"))"
        let pretty = try runInPseudoTerminal(command, in: directory, color: true)
        XCTAssertEqual(pretty.status, 0, pretty.drawn)
        XCTAssertTrue(pretty.drawn.hasPrefix("{\r\n    \u{1B}[34m\"body\"\u{1B}[0m: "), pretty.drawn.debugDescription)
        let plain = try runInPseudoTerminal(command, in: directory)
        XCTAssertTrue(plain.drawn.hasPrefix("{\r\n    \"body\": \"\",\r\n"), plain.drawn.debugDescription)
        let raw = try runInPseudoTerminal(command + " --raw", in: directory)
        XCTAssertTrue(raw.drawn.hasPrefix("{\"body\":"), raw.drawn.debugDescription)
    }
}

/// `-u`, `--auth`, `--netrc`, cookies.
final class AuthenticationTests: ServerTestCase {
    func testBasicCredentialsAreSentAndARefusalExits6() throws {
        let url = server.url("/auth/basic?user=ann&password=s3cret")
        let good = try Afget.run(["request", "-u", "ann:s3cret", url], in: directory)
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(good.stdoutText, "welcome ann\n")
        let wrong = try Afget.run(["request", "-u", "ann:nope", url], in: directory)
        XCTAssertEqual(wrong.status, 6)
        XCTAssertEqual(wrong.stderrLines.count, 1)
        XCTAssertTrue(wrong.stderr.contains("401"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("nope"), "the password is never printed: \(wrong.stderr)")
        let none = try Afget.run(["request", url], in: directory)
        XCTAssertEqual(none.status, 8)
    }

    func testDigestAndAny() throws {
        let url = server.url("/auth/digest?user=ann&password=s3cret")
        let digest = try Afget.run(["request", "-u", "ann:s3cret", "--auth", "digest", url], in: directory)
        XCTAssertEqual(digest.status, 0, digest.stderr)
        XCTAssertEqual(digest.stdoutText, "welcome ann\n")
        let any = try Afget.run(["request", "-u", "ann:s3cret", "--auth", "any", url], in: directory)
        XCTAssertEqual(any.status, 0, any.stderr)
        let wrong = try Afget.run(["request", "-u", "ann:bad", "--auth", "digest", url], in: directory)
        XCTAssertEqual(wrong.status, 6)
        let download = try Afget.run(["-q", "-u", "ann:s3cret", "--auth", "digest", "-o", "page.txt", url], in: directory)
        XCTAssertEqual(download.status, 0, download.stderr)
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("page.txt"), encoding: .utf8), "welcome ann\n")
    }

    func testNetrcSuppliesCredentials() throws {
        let netrc = directory.appendingPathComponent("netrc")
        try "machine 127.0.0.1 login ann password s3cret\n".write(to: netrc, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: netrc.path)
        let url = server.url("/auth/basic?user=ann&password=s3cret")
        let result = try Afget.run(["request", "--netrc-file", netrc.path, url], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: netrc.path)
        let shared = try Afget.run(["request", "--netrc"], in: directory, environment: ["NETRC": netrc.path])
        XCTAssertEqual(shared.status, 2, "no URL")
        let warned = try Afget.run(["request", "--netrc", url], in: directory, environment: ["NETRC": netrc.path])
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertEqual(warned.stderrLines, ["afget: warning: \(netrc.path) can be read by other users; chmod 600 it"])
        // Not for a mode that lets others write but not read, nor for a device.
        try FileManager.default.setAttributes([.posixPermissions: 0o620], ofItemAtPath: netrc.path)
        let writableByGroup = try Afget.run(["request", "--netrc", url], in: directory, environment: ["NETRC": netrc.path])
        XCTAssertEqual(writableByGroup.stderr, "")
        let device = try Afget.run(["request", "--netrc-file", "/dev/null", server.url("/echo")], in: directory)
        XCTAssertEqual(device.status, 0, device.stderr)
        XCTAssertEqual(device.stderr, "")

        // A netrc file named but not there is refused before any request (libcurl would go on
        // without credentials); a missing ~/.netrc is not, as in curl.
        let missing = try Afget.run(["request", "--netrc-file", "nope", url], in: directory)
        XCTAssertEqual(missing.status, 3)
        XCTAssertEqual(missing.stderrLines, ["afget: cannot read the netrc file nope: No such file or directory"])
        let count = server.log.all.count
        let absent = try Afget.run(
            ["request", "--netrc", server.url("/echo")], in: directory,
            environment: ["NETRC": directory.appendingPathComponent("none").path])
        XCTAssertEqual(absent.status, 0, absent.stderr)
        XCTAssertEqual(server.log.all.count, count + 1)
    }

    func testCredentialsDoNotFollowARedirectToAnotherOrigin() throws {
        let other = try TestHTTPServer()
        let target = other.url("/echo-headers").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let result = try Afget.run(
            ["request", "-u", "ann:s3cret", "--cookie", "k=v", server.url("/redirect?to=\(target)")],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.log.all.first?.header("Authorization"), "Basic " + Data("ann:s3cret".utf8).base64EncodedString())
        XCTAssertEqual(server.log.all.first?.header("Cookie"), "k=v")
        XCTAssertNil(other.log.all.first?.header("Authorization"))
        XCTAssertNil(other.log.all.first?.header("Cookie"))
    }

    func testACookieJarIsWrittenAndReadBack() throws {
        let set = try Afget.run(
            ["request", "--cookie-jar", "jar.txt", server.url("/cookies/set?session=abc&theme=dark")],
            in: directory)
        XCTAssertEqual(set.status, 0, set.stderr)
        let jar = try String(contentsOf: directory.appendingPathComponent("jar.txt"), encoding: .utf8)
        XCTAssertTrue(jar.contains("\tsession\tabc"), jar)
        let sent = try Afget.run(["request", "--cookie-jar", "jar.txt", server.url("/cookies")], in: directory)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(
            ["cookie: session=abc; theme=dark\n", "cookie: theme=dark; session=abc\n"].contains(sent.stdoutText),
            sent.stdoutText)
        let given = try Afget.run(["request", "--cookie", "a=b", server.url("/cookies")], in: directory)
        XCTAssertEqual(given.stdoutText, "cookie: a=b\n")

        // A jar that could not be saved is refused before the request, not lost after it.
        let count = server.log.all.count
        let unsaved = try Afget.run(["--cookie-jar", "missing/jar.txt", server.url("/cookies/set?x=1")], in: directory)
        XCTAssertEqual(unsaved.status, 3)
        XCTAssertEqual(unsaved.stderrLines, ["afget: cannot write the cookie jar missing/jar.txt: No such file or directory"])
        // A jar is a file libcurl reads and replaces: not standard output. (Named here as
        // /proc/self/fd/1, where a regression could not replace anything: no file can be made
        // beside it.)
        let toStdout = try Afget.run(["--cookie-jar", "/proc/self/fd/1", server.url("/cookies/set?x=1")], in: directory)
        XCTAssertEqual(toStdout.status, 2)
        XCTAssertEqual(
            toStdout.stderrLines,
            ["afget: --cookie-jar /proc/self/fd/1: the jar is read and saved as a file; name a file"])
        XCTAssertEqual(server.log.all.count, count)
    }
}
