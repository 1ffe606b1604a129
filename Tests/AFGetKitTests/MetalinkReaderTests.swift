import AFGetSupport
import XCTest

@testable import AFGetKit

/// Metalink v4 documents read through libxml2: what a usable one yields, and each way a
/// document is refused whole, naming its line and the cause.
final class MetalinkReaderTests: XCTestCase {
    private let sha256 = String(repeating: "ab", count: 32)
    private let md5 = String(repeating: "cd", count: 16)

    private func document(_ files: String, prolog: String = "") -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>\(prolog)
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
            \(files)
            </metalink>
            """.utf8)
    }

    func testAFileWithItsSizeHashesPiecesAndURLsByPriority() throws {
        let files = try MetalinkReader.files(
            in: document(
                """
                <file name="iso/debian.iso">
                  <size>600000</size>
                  <hash type="md5">\(md5)</hash>
                  <hash type="sha-384">\(String(repeating: "0", count: 96))</hash>
                  <hash type="SHA-256"> \(sha256.uppercased()) </hash>
                  <pieces length="262144" type="sha-1">
                    <hash>\(String(repeating: "1", count: 40))</hash>
                    <hash>\(String(repeating: "2", count: 40))</hash>
                    <hash>\(String(repeating: "3", count: 40))</hash>
                  </pieces>
                  <url>http://c.example/debian.iso</url>
                  <url priority="2">https://b.example/debian.iso</url>
                  <url priority="1" location="de">https://a.example/debian.iso</url>
                  <url priority="2">http://b2.example/debian.iso</url>
                  <url priority="1">gopher://g.example/debian.iso</url>
                  <url priority="3">ftp://ftp.example/debian.iso</url>
                  <metaurl mediatype="torrent">http://t.example/debian.torrent</metaurl>
                  <description>ignored</description>
                </file>
                """), name: "d.meta4")
        XCTAssertEqual(files.count, 1)
        let file = files[0]
        XCTAssertEqual(file.name, "iso/debian.iso")
        XCTAssertEqual(file.line, 3)
        XCTAssertEqual(file.size, 600_000)
        XCTAssertEqual(file.hashes, [Checksum(algorithm: .sha256, hex: sha256), Checksum(algorithm: .md5, hex: md5)])
        XCTAssertEqual(file.pieces?.length, 262_144)
        XCTAssertEqual(file.pieces?.algorithm, .sha1)
        XCTAssertEqual(file.pieces?.hashes.count, 3)
        XCTAssertEqual(
            file.urls.map(\.text),
            [
                "https://a.example/debian.iso", "https://b.example/debian.iso", "http://b2.example/debian.iso",
                "ftp://ftp.example/debian.iso", "http://c.example/debian.iso",
            ], "priority first, then document order; a gopher URL afget cannot fetch is left out")
    }

    func testEachRefusalNamesTheLineAndTheCause() {
        let url = "<url>http://a.example/f</url>"
        let rows: [(body: [UInt8], item: String, cause: String)] = [
            (Array("<metalink".utf8), "d.meta4:1", "not well-formed XML"),
            (Array("".utf8), "d.meta4", "empty"),
            (Array("<metalink xmlns=\"http://www.metalinker.org/\"/>".utf8), "d.meta4:1", "not a Metalink v4 document"),
            (document(""), "d.meta4:2", "describes no file"),
            (document("<file>\(url)</file>"), "d.meta4:3", "a <file> without a name"),
            (document("<file name=\"../etc/x\">\(url)</file>"), "d.meta4:3", "must be a relative file name"),
            (document("<file name=\"/etc/x\">\(url)</file>"), "d.meta4:3", "must be a relative file name"),
            (document("<file name=\"dir/\">\(url)</file>"), "d.meta4:3", "must be a relative file name"),
            (document("<file name=\"f\"/>"), "d.meta4:3", "f: no <url>"),
            (document("<file name=\"f\"><url>gopher://h/f</url></file>"), "d.meta4:3", "no URL afget can fetch (gopher://h/f)"),
            (document("<file name=\"f\"><size>-1</size>\(url)</file>"), "d.meta4:3", "is not a count"),
            (document("<file name=\"f\"><size>1</size><size>1</size>\(url)</file>"), "d.meta4:3", "<size> given twice"),
            (document("<file name=\"f\"><hash type=\"sha-256\">abc</hash>\(url)</file>"), "d.meta4:3", "64 hex digits"),
            (document("<file name=\"f\"><url priority=\"0\">http://a/f</url></file>"), "d.meta4:3", "is not 1 to 999999"),
            (
                document(
                    """
                    <file name="f"><size>10</size><pieces length="4" type="md5"><hash>\(md5)</hash></pieces>\(url)</file>
                    """), "d.meta4:3", "1 piece hashes for 10 bytes in pieces of 4"
            ),
        ]
        for row in rows {
            XCTAssertThrowsError(try MetalinkReader.files(in: row.body, name: "d.meta4"), row.cause) { error in
                guard let failure = error as? ItemFailure else { return XCTFail("\(error)") }
                XCTAssertEqual(failure.item, row.item, row.cause)
                XCTAssertTrue(failure.failure.message.contains(row.cause), "\(failure.failure.message) / \(row.cause)")
                XCTAssertEqual(failure.exitCode, 2)
            }
        }
    }

    func testAnExternalEntityIsNotFetched() throws {
        // A file of this machine's named by an entity does not reach the URL (in an attribute,
        // libxml2 refuses it outright).
        let prolog = """

            <!DOCTYPE metalink [ <!ENTITY secret SYSTEM "file:///etc/hostname"> ]>
            """
        let files = try MetalinkReader.files(
            in: document("<file name=\"f.bin\"><url>http://a.example/f&secret;</url></file>", prolog: prolog),
            name: "d.meta4")
        XCTAssertEqual(files[0].urls.map(\.text), ["http://a.example/f"])
    }

    func testEntitiesThatMultiplyAreRefused() {
        // A "billion laughs": libxml2's guard refuses it at once; afget never expands it.
        let prolog = """

            <!DOCTYPE metalink [
              <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
              <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
              <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
            ]>
            """
        let body = document("<file name=\"f&e;.bin\"><url>http://a.example/f&e;</url></file>", prolog: prolog)
        XCTAssertThrowsError(try MetalinkReader.files(in: body, name: "d.meta4")) { error in
            XCTAssertEqual((error as? ItemFailure)?.exitCode, 2)
        }
    }
}
