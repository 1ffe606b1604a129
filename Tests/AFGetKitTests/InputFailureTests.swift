@testable import AFGetKit
import AFGetRequest
@testable import AFGetSupport
import Glibc
import XCTest

/// Every usage failure's words and code, from its reason alone, and the reasons the parsers
/// give for real bad input. No sockets.
final class InputFailureTests: XCTestCase {
    func testEachReasonsWordsAndCode() {
        let rows: [(reason: InputFailure, words: String, code: String)] = [
            // A list's lines
            (.notUTF8, "the line is not valid UTF-8", "line-not-utf8"),
            (.optionWithoutURL, "option line without a URL before it", "list-option-without-url"),
            (.optionNotKeyValue("out"), "option \"out\" is not key=value", "list-option-not-key-value"),
            (.directoryEmpty, "dir= is empty", "list-dir-empty"),
            (
                .unknownOption("split", known: ["out", "dir", "checksum", "header"]),
                "unknown option \"split\" (out, dir, checksum, header)", "list-option-unknown"
            ),
            (.optionBesideURL("out=a"), "out=a goes on its own line below the URL, indented", "list-option-beside-url"),
            (
                .notRelative(key: "out", path: "../a"),
                "out=../a must be a relative file name, without .. and not ending in / or .", "name-not-relative"
            ),
            (.listUnreadable(errno: ENOENT), "cannot read the list: No such file or directory", "list-unreadable"),
            (.listTooLarge, "cannot read the list: too large", "list-too-large"),
            (
                .documentNotAlone, "a Metalink document is named alone on its line (its files' other sources are in it)",
                "document-not-alone"
            ),
            (
                .documentOut, "out= names one file; a Metalink document names each of its files (dir= sets where)",
                "document-option-unknown"
            ),
            (
                .documentChecksum, "checksum= checks one file; a Metalink document gives each of its files' hashes",
                "document-option-unknown"
            ),
            (
                .documentHeader, "header= is not used on a Metalink document's line; -H sets headers for the run",
                "document-option-unknown"
            ),
            (
                .documentUnknownOption("out2"), "unknown option \"out2\" (a Metalink document's line takes dir=)",
                "document-option-unknown"
            ),
            // Destinations
            (
                .sameDestination(earlier: "l:1", later: "l:2"),
                "l:1 and l:2 would both write this file; give one of them out= or -o, or add --on-conflict rename to number the later one",
                "same-destination"
            ),
            (
                .sameDestinationOtherOptions(earlier: "l:1", later: "l:2"),
                "l:1 and l:2 fetch the same URL into this file with different checksum= or header= lines; keep one of them",
                "same-destination-other-options"
            ),
            (
                .reportIsList(report: "r"), "--report r is the input list, which the report would replace; name another file",
                "report-is-list"
            ),
            (
                .reportIsDownload(report: "r", item: "l:3"), "--report r is where l:3 is downloaded; name another file",
                "report-is-download"
            ),
            (
                .reportIsThisItem(report: "r"), "--report r is where this item would be downloaded; name another file",
                "report-is-download"
            ),
            (
                .pathHasControlCharacter(path: "a\u{1}b", byte: 1),
                "a\u{1}b: the path contains a control character (0x01), which resume data cannot record; choose another name",
                "path-control-character"
            ),
            (
                .pathHasControlCharacter(path: "a\u{1B}b", byte: 0x1B),
                "a\u{1B}b: the path contains a control character (0x1B), which resume data cannot record; choose another name",
                "path-control-character"
            ),
            (
                .workingFileName("x.afpart"),
                "x.afpart: a name ending in .afpart, .afresume or .aftmp would be taken for afget's own files of another "
                    + "download; choose another name with -o or out=",
                "working-file-name"
            ),
            (.notResumeData(suffix: ".afresume"), "not a directory or a .afresume file", "not-resume-data"),
            (
                .replacementURLNeedsOneResumeFile(found: 2), "applies to exactly one resume file (found 2)",
                "url-needs-one-resume-file"
            ),
            // Metalink documents
            (.documentTooLarge(limit: 64 << 20), "larger than 64 MiB: not a Metalink document", "metalink-too-large"),
            (.documentEmpty, "empty: not a Metalink document", "metalink-empty"),
            (.notWellFormedXML("EndTag: '</' not found"), "not well-formed XML: EndTag: '</' not found", "metalink-not-xml"),
            (
                .notMetalink4(namespace: "urn:ietf:params:xml:ns:metalink"),
                "not a Metalink v4 document (no <metalink> of urn:ietf:params:xml:ns:metalink)", "not-metalink"
            ),
            (.describesNoFile, "describes no file", "metalink-no-file"),
            (.fileWithoutName, "a <file> without a name", "metalink-file-without-name"),
            (.elementTwice("size"), "<size> given twice", "metalink-element-twice"),
            (
                .notACount(what: "<size>", text: String(repeating: "x", count: 50)),
                "<size> \"\(String(repeating: "x", count: 40))\" is not a count", "metalink-not-a-count"
            ),
            (.priorityOutOfRange("0", lowest: 999_999), "priority 0 is not 1 to 999999", "metalink-priority-out-of-range"),
            (.noURL, "no <url>", "metalink-no-url"),
            (
                .noFetchableURL(["a:", "b:", "c:", "d:"]), "no URL afget can fetch (a:, b:, c:)", "metalink-no-fetchable-url"
            ),
            (
                .piecesDoNotFit(count: 2, size: 10, length: 4), "2 piece hashes for 10 bytes in pieces of 4",
                "metalink-pieces-do-not-fit"
            ),
            (.piecesOfLengthZero, "<pieces> of length 0", "metalink-pieces-length-zero"),
            (.documentUnreadable(errno: EACCES), "cannot read it: Permission denied", "metalink-unreadable"),
            // Checksums
            (
                .checksumNotAlgorithmAndHex("abc"), "checksum \"abc\" is not ALGO=HEX (sha-256, sha-512, sha-1 or md5)",
                "checksum-not-algo-hex"
            ),
            (
                .checksumAlgorithmUnknown("crc"), "unknown checksum algorithm \"crc\" (sha-256, sha-512, sha-1 or md5)",
                "checksum-algorithm-unknown"
            ),
            (.checksumLength(algorithm: "md5", digits: 32), "md5 checksum must be 32 hex digits", "checksum-length"),
            (
                .sumsUnreadable(path: "SUMS", errno: ENOENT), "--checksums SUMS: No such file or directory", "sums-unreadable"
            ),
            (.sumsTooLarge(path: "SUMS", limit: 256 << 20), "--checksums SUMS: larger than 256 MiB", "sums-too-large"),
            (
                .notSumsLine, "not a checksum line: expected \"HASH  NAME\" or \"ALGO (NAME) = HASH\"", "sums-line-unknown"
            ),
            (
                .hashLengthUnknown(3), "a hash of 3 hex digits is none of MD5 (32), SHA-1 (40), SHA-256 (64) or SHA-512 (128)",
                "sums-hash-length-unknown"
            ),
            (
                .noSeparatorAfterHash, "expected two spaces, or a space and *, between the hash and the name",
                "sums-no-separator"
            ),
            (.noNameAfterHash, "no file name after the hash", "sums-no-name"),
            (
                .tagUnknown("CRC32\u{7}"), "\"CRC32\u{7}\" is not an algorithm afget checks (MD5, SHA1, SHA256, SHA512)",
                "sums-tag-unknown"
            ),
            (.taggedLineMalformed(tag: "MD5"), "expected \"MD5 (NAME) = HASH\"", "sums-tagged-line-malformed"),
            (.noNameInParentheses, "no file name between the parentheses", "sums-no-name"),
            (.taggedHashLength(tag: "SHA1", digits: 40), "a SHA1 hash must be 40 hex digits", "sums-hash-length"),
            (.loneBackslash, "the escaped name ends in a lone backslash", "sums-escape-unknown"),
            (
                .unknownEscape(UInt8(ascii: "t")), "\\t in the escaped name is not an escape coreutils writes (\\\\, \\n, \\r)",
                "sums-escape-unknown"
            ),
            (
                .unknownEscape(0x07), "\\ in the escaped name is not an escape coreutils writes (\\\\, \\n, \\r)",
                "sums-escape-unknown"
            ),
            (.nameNamesNoFile, "the name names no file", "sums-no-name"),
            (
                .anotherHash(name: "a.iso", algorithm: "sha-256", line: 2), "a.iso has another sha-256 hash on line 2",
                "sums-another-hash"
            ),
            // Requests
            (
                .notAURL(remoteFiles: true),
                "not a URL: it must start with http://, https://, ftp://, ftps://, sftp:// or scp://",
                "not-a-url"
            ),
            (.notAURL(remoteFiles: false), "not a URL: it must start with http:// or https://", "not-a-url"),
            (
                .unsupportedScheme("file", remoteFiles: true),
                "file: URLs are not supported: afget fetches http://, https://, ftp://, ftps://, sftp:// or scp:// URLs",
                "scheme-unsupported"
            ),
            (
                .unsupportedScheme("ftp", remoteFiles: false),
                "ftp: URLs are not supported: afget request speaks http:// or https:// URLs", "scheme-unsupported"
            ),
            (
                .urlTooLong(length: 9, limit: 8), "URL too long: 9 bytes, more than a request can carry (8)", "url-too-long"
            ),
            (.malformedURL("bad port"), "malformed URL: bad port", "url-malformed"),
            (
                .urlNamesDirectory, "a directory (the URL ends with /): afget downloads files; name one in the directory",
                "url-names-directory"
            ),
            (
                .requestTooLarge(size: 9, limit: 8), "the URL and headers come to 9 bytes, more than a request can carry (8)",
                "request-too-large"
            ),
            (
                .itemMalformed("x"), "item \"x\" is not name=value, name==value, Name:value, name:=JSON or field@path",
                "item-malformed"
            ),
            (
                .itemJSONInvalid(item: "a:={", value: "{", said: "unexpected end"),
                "item \"a:={\": { is not valid JSON (unexpected end)", "item-json-invalid"
            ),
            (.itemNamesNoFile("f@"), "item \"f@\" names no file", "item-names-no-file"),
            (
                .fileFieldsNeedMultipart(format: "json"), "file fields (name@path) need a multipart body, not --json",
                "file-fields-need-multipart"
            ),
            (
                .rawBodyWithItems, "a raw body (-d, --data-binary, --json DATA, ...) cannot be combined with body items",
                "raw-body-with-items"
            ),
            (
                .fileFieldsWithoutBody(method: "GET"), "GET requests carry no body, so file fields (name@path) cannot be sent",
                "file-fields-without-body"
            ),
            (
                .bodyUnrepresentable("null cannot be sent in a property list"), "null cannot be sent in a property list",
                "body-unrepresentable"
            ),
            (
                .headerWithoutColon(firstWord: "Token…"), "header \"Token…\" has no colon; use \"Name: value\"",
                "header-without-colon"
            ),
            (.headerNameNotToken(firstWord: "A…"), "header name \"A…\" is not a valid HTTP token", "header-name-not-token"),
            (.headerLineBreak(name: "X"), "header \"X\" contains a line break", "header-line-break"),
            (.headerControlCharacter(name: "X"), "header \"X\" contains a control character", "header-control-character"),
            (
                .acceptStatusMalformed("2xx"), "--accept-status \"2xx\": expected codes and ranges such as 200-299,304",
                "accept-status-malformed"
            ),
            (
                .acceptTypeMalformed("json"), "--accept-type \"json\": expected a media type such as application/json or text/*",
                "accept-type-malformed"
            ),
            (.contentLengthNotCount("ten"), "Content-Length: ten is not a byte count", "content-length-not-count"),
            (.contentLengthTwice(1, 2), "Content-Length is given twice, as 1 and 2", "content-length-twice"),
            (
                .contentLengthWithTransferEncoding, "Content-Length and Transfer-Encoding cannot both be sent",
                "content-length-with-transfer-encoding"
            ),
            (
                .contentLengthMismatch(announced: 3, body: 4), "Content-Length: 3 does not match the body's 4 bytes",
                "content-length-mismatch"
            ),
            (
                .contentLengthBelowBody(announced: 3, body: 4),
                "Content-Length: 3 is less than the body's 4 bytes besides standard input", "content-length-mismatch"
            ),
            (
                .standardInputShort(received: 3, announced: 4),
                "standard input ended after 3 of the 4 bytes Content-Length announces", "standard-input-short"
            ),
            (.notRegularFile, "not a regular file", "not-regular-file"),
            (.bodyFileNotRegular(path: "/tmp"), "/tmp is not a regular file", "not-regular-file"),
            // Options
            (
                .cookieJarNotFile("-"), "--cookie-jar -: the jar is read and saved as a file; name a file",
                "cookie-jar-not-file"
            ),
            (
                .hostKeyPinMalformed("x"), "--ssh-host-key-sha256 \"x\" is not a SHA-256 fingerprint (43 base64 characters)",
                "host-key-pin-malformed"
            ),
            (.publicKeyPinsEmpty, "--pin-pubkey needs at least one sha256//BASE64 pin", "public-key-pins-empty"),
            (
                .publicKeyPinMalformed("x"), "--pin-pubkey \"x\" is not sha256// followed by a base64 SHA-256 hash",
                "public-key-pin-malformed"
            ),
            (.certificateNotBase64(path: "c.pem"), "c.pem: a PEM certificate is not valid base64", "certificate-not-base64"),
            (.notCertificates(path: "c.der"), "c.der does not hold X.509 certificates (PEM or DER)", "not-certificates"),
        ]
        for row in rows {
            assertReason(.input(row.reason), says: row.words, code: row.code, exits: FailureClass.usage.exitCode)
        }
    }

    /// A list's bad lines: the reason of the line's own failure, and a bad option line's item
    /// dropped with a note naming its URL.
    func testAListsBadLinesGiveTheirReasons() {
        let list = InputList(
            parsing: Array("  out=a\nhttp://h/a.bin\n  dir=\nhttp://h/b.bin\n  split=4\nhttp://h/c.bin out=c\n".utf8),
            name: "list")
        XCTAssertEqual(
            list.problems.map(\.failure.reason),
            [
                .input(.optionWithoutURL), .input(.directoryEmpty),
                .input(.unknownOption("split", known: ["out", "dir", "checksum", "header"])),
                .input(.optionBesideURL("out=c")),
            ])
        XCTAssertEqual(list.problems[1].failure.notes, [.notDownloading(url: "http://h/a.bin")])
        XCTAssertEqual(list.problems[1].failure.message, "dir= is empty; not downloading http://h/a.bin")
        XCTAssertEqual(list.problems.map(\.item), ["list:1", "list:3", "list:5", "list:6"])
    }

    /// A sums file's bad line keeps its reason, with the file and line said before it.
    func testASumsFilesBadLineKeepsItsReason() {
        XCTAssertThrowsError(try SumsFile(parsing: Array("\(String(repeating: "a", count: 32))  x\nabc  y\n".utf8), name: "SUMS"))
        {
            let failure = $0 as? TransferFailure
            XCTAssertEqual(failure?.reason, .input(.hashLengthUnknown(3)))
            XCTAssertEqual(failure?.notes, [.at("SUMS:2")])
        }
        XCTAssertThrowsError(try SumsLine.parse(Array("\\\(String(repeating: "a", count: 32))  a\\tb".utf8)[...])) {
            XCTAssertEqual(($0 as? TransferFailure)?.reason, .input(.unknownEscape(UInt8(ascii: "t"))))
        }
    }

    func testChecksumsHeadersAndURLsGiveTheirReasons() {
        XCTAssertThrowsError(try Checksum.parse("sha-256=abc")) {
            XCTAssertEqual(($0 as? TransferFailure)?.reason, .input(.checksumLength(algorithm: "sha-256", digits: 64)))
        }
        XCTAssertThrowsError(try Checksum.parse("crc32=abc")) {
            XCTAssertEqual(($0 as? TransferFailure)?.reason, .input(.checksumAlgorithmUnknown("crc32")))
        }
        XCTAssertThrowsError(try HTTPHeader.parse("Authorization Bearer secret")) {
            XCTAssertEqual(($0 as? TransferFailure)?.reason, .input(.headerWithoutColon(firstWord: "Authorization…")))
        }
        XCTAssertThrowsError(try RequestSerializer.parseURL("file:///etc/hosts", for: .download)) {
            XCTAssertEqual(($0 as? ItemFailure)?.failure.reason, .input(.unsupportedScheme("file", remoteFiles: true)))
        }
    }

    /// A Metalink `<file>`'s fault names the file before it, and the document's line before that.
    func testAMetalinkFilesFaultNamesTheFile() {
        let document = """
            <?xml version="1.0"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <file name="a.iso"><size>1</size><size>2</size><url>http://h/a.iso</url></file>
            </metalink>
            """
        XCTAssertThrowsError(try MetalinkReader.files(in: Array(document.utf8), name: "d.meta4")) {
            let failure = $0 as? ItemFailure
            XCTAssertEqual(failure?.item, "d.meta4:3")
            XCTAssertEqual(failure?.failure.reason, .input(.elementTwice("size")))
            XCTAssertEqual(failure?.description, "d.meta4:3: a.iso: <size> given twice")
        }
    }
}
