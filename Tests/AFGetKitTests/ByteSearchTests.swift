import AFGetSupport
import XCTest

/// The byte searches paths and URLs go through: the same answers as searching the string's
/// characters, with letters of several bytes around the byte searched for.
final class ByteSearchTests: XCTestCase {
    func testSearchesFindTheASCIIByteBetweenLettersOfAnyLength() {
        let rows: [(text: String, byte: Character, contains: Bool, before: String?, after: String?)] = [
            ("", "/", false, nil, nil),
            ("name", "/", false, nil, nil),
            ("/", "/", true, "", ""),
            ("dir/name", "/", true, "dir", "name"),
            ("a/b/c", "/", true, "a/b", "c"),
            ("dossier/été.txt", "/", true, "dossier", "été.txt"),
            ("日本/語/ファイル", "/", true, "日本/語", "ファイル"),
            ("e\u{301}/x", "/", true, "e\u{301}", "x"),
            ("trailing/", "/", true, "trailing", ""),
            ("user@host", "@", true, "user", "host"),
            ("100%", "%", true, "100", ""),
        ]
        for row in rows {
            let byte = row.byte.asciiValue!
            XCTAssertEqual(row.text.containsByte(byte), row.contains, row.text)
            let split = row.text.split(atLastByte: byte)
            XCTAssertEqual(split.map { String($0.before) }, row.before, row.text)
            XCTAssertEqual(split.map { String($0.after) }, row.after, row.text)
            XCTAssertEqual(row.text.suffix(afterLastByte: byte).map(String.init), row.after, row.text)
        }
    }

    func testSplittingAPathKeepsItsPlaces() {
        XCTAssertTrue(splitPath("name") == (".", "name"))
        XCTAssertTrue(splitPath("/name") == ("/", "name"))
        XCTAssertTrue(splitPath("a/é/ü.bin") == ("a/é", "ü.bin"))
    }
}
