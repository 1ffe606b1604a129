@testable import AFGetKit
import AFGetSupport
import XCTest

/// Sums files (`--checksums`) read from their bytes: each format's lines, the algorithm from a
/// tag or a hash's length, escaped names, refusals naming the line, and how items find their
/// entry. No sockets.
final class SumsFileTests: XCTestCase {
    private let md5 = String(repeating: "a", count: 32)
    private let sha1 = String(repeating: "b", count: 40)
    private let sha256 = String(repeating: "c", count: 64)
    private let sha512 = String(repeating: "d", count: 128)

    private func parse(_ text: String) throws(TransferFailure) -> SumsFile {
        try SumsFile(parsing: Array(text.utf8), name: "SUMS")
    }

    /// The cause a file is refused with: "SUMS:LINE: cause".
    private func refusal(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            XCTAssertEqual(error.kind, .usage)
            return error.message
        }
    }

    func testEachFormatGivesNameAlgorithmAndHash() throws {
        let upper = String(repeating: "C", count: 64)
        let rows: [(line: String, name: String, algorithm: DigestAlgorithm, hex: String)] = [
            ("\(sha256)  a.iso", "a.iso", .sha256, sha256),
            ("\(sha256) *a.iso", "a.iso", .sha256, sha256),
            ("\(upper)  a.iso", "a.iso", .sha256, sha256),
            ("\(md5)  a.iso", "a.iso", .md5, md5),
            ("\(sha1)  a.iso", "a.iso", .sha1, sha1),
            ("\(sha512)  a.iso", "a.iso", .sha512, sha512),
            ("\(sha256)  name with  spaces ", "name with  spaces ", .sha256, sha256),
            ("\(sha256)  *star", "*star", .sha256, sha256),
            ("SHA256 (a.iso) = \(sha256)", "a.iso", .sha256, sha256),
            ("MD5 (a.iso) = \(md5)", "a.iso", .md5, md5),
            ("SHA1 (a.iso) = \(sha1)", "a.iso", .sha1, sha1),
            ("SHA512 (a.iso) = \(sha512)", "a.iso", .sha512, sha512),
            ("SHA256 (odd) = (name).iso) = \(sha256)", "odd) = (name).iso", .sha256, sha256),
            ("  \t\(sha256)  indented", "indented", .sha256, sha256),
            ("\(sha256)  crlf.iso\r", "crlf.iso", .sha256, sha256),
            // coreutils' escaped names: a line starting with a backslash.
            ("\\\(sha256)  back\\\\slash", "back\\slash", .sha256, sha256),
            ("\\\(sha256)  two\\nlines\\r", "two\nlines\r", .sha256, sha256),
            ("\\SHA256 (a\\\\b) = \(sha256)", "a\\b", .sha256, sha256),
            ("\(sha256)  not\\nescaped", "not\\nescaped", .sha256, sha256),
        ]
        for row in rows {
            let file = try parse(row.line)
            XCTAssertEqual(file.entries.count, 1, row.line)
            XCTAssertEqual(file.entries.first?.path, Array(row.name.utf8), row.line)
            XCTAssertEqual(file.entries.first?.checksum, Checksum(algorithm: row.algorithm, hex: row.hex), row.line)
        }
    }

    func testBlankLinesCommentsAndAByteOrderMarkAreSkipped() throws {
        let file = try SumsFile(
            parsing: [0xEF, 0xBB, 0xBF] + Array("# made by sha256sum\n\n   \n\(sha256)  a\r\n\(md5)  b\n".utf8), name: "SUMS")
        XCTAssertEqual(file.entries.map(\.path), [Array("a".utf8), Array("b".utf8)])
        XCTAssertEqual(file.entries.map(\.line), [4, 5])
        XCTAssertEqual(file.entries.map(\.checksum.origin), ["SUMS:4", "SUMS:5"], "a mismatch names its line")
    }

    /// One line naming the file and the line, and why; the whole file is refused.
    func testMalformedLinesAreRefusedNamingFileAndLine() {
        let rows: [(text: String, message: String)] = [
            ("\(sha256)  ok\nnonsense", "SUMS:2: not a checksum line: expected \"HASH  NAME\" or \"ALGO (NAME) = HASH\""),
            ("\(sha256) one-space", "SUMS:1: expected two spaces, or a space and *, between the hash and the name"),
            ("\(sha256)", "SUMS:1: expected two spaces, or a space and *, between the hash and the name"),
            ("\(sha256)  ", "SUMS:1: no file name after the hash"),
            (
                "\n\n\(String(repeating: "e", count: 56))  a",
                "SUMS:3: a hash of 56 hex digits is none of MD5 (32), SHA-1 (40), SHA-256 (64) or SHA-512 (128)"
            ),
            (
                "\(String(repeating: "g", count: 64))  a",
                "SUMS:1: not a checksum line: expected \"HASH  NAME\" or \"ALGO (NAME) = HASH\""
            ),
            ("SHA384 (a) = \(sha256)", "SUMS:1: \"SHA384\" is not an algorithm afget checks (MD5, SHA1, SHA256, SHA512)"),
            ("SHA256 (a) = \(md5)", "SUMS:1: a SHA256 hash must be 64 hex digits"),
            ("SHA256 (a) \(sha256)", "SUMS:1: expected \"SHA256 (NAME) = HASH\""),
            ("SHA256 () = \(sha256)", "SUMS:1: no file name between the parentheses"),
            ("\\\(sha256)  a\\tb", "SUMS:1: \\t in the escaped name is not an escape coreutils writes (\\\\, \\n, \\r)"),
            ("\\\(sha256)  a\\", "SUMS:1: the escaped name ends in a lone backslash"),
            ("\(sha256)  ./", "SUMS:1: the name names no file"),
            ("\(sha256)  a\n\(String(repeating: "f", count: 64))  ./a", "SUMS:2: a has another sha-256 hash on line 1"),
        ]
        for row in rows {
            XCTAssertEqual(refusal(row.text), row.message, row.text)
        }
    }

    /// Fullwidth digits are hex digits to `Character`, and no digest equals them.
    func testOnlyASCIIHexIsAHash() {
        XCTAssertNotNil(refusal(String(repeating: "\u{FF11}", count: 64) + "  a"))
    }

    func testAFileNamedTwiceKeepsOneHashOrTheStrongestAlgorithm() throws {
        let same = try parse("\(sha256)  a\n\(sha256)  ./a\n")
        XCTAssertEqual(same.entries.count, 1)
        let both = try parse("MD5 (a) = \(md5)\nSHA512 (a) = \(sha512)\nSHA1 (a) = \(sha1)\n")
        XCTAssertEqual(both.entries.map(\.checksum), [Checksum(algorithm: .sha512, hex: sha512)])
        XCTAssertEqual(both.entries.map(\.line), [1])
    }

    /// An item is found by its path below `-d`, else by its name when that is unique.
    func testLookupByPathThenByUniqueName() throws {
        let other = String(repeating: "0", count: 64)
        let file = try parse(
            """
            \(sha256)  ./isos/amd64/debian.iso
            \(other)  isos/arm64/debian.iso
            \(sha512)  docs//README
            \(md5)  same/x
            \(md5)  other/x
            """)
        let rows: [(path: String, expected: Checksum?)] = [
            ("isos/amd64/debian.iso", Checksum(algorithm: .sha256, hex: sha256)),
            ("./isos/arm64/debian.iso", Checksum(algorithm: .sha256, hex: other)),
            ("debian.iso", nil),  // two entries of that name with different hashes
            ("README", Checksum(algorithm: .sha512, hex: sha512)),
            ("elsewhere/README", Checksum(algorithm: .sha512, hex: sha512)),
            ("docs/README", Checksum(algorithm: .sha512, hex: sha512)),
            ("x", Checksum(algorithm: .md5, hex: md5)),  // two entries of that name, one hash
            ("missing.iso", nil),
        ]
        for row in rows {
            XCTAssertEqual(file.checksum(forPath: Array(row.path.utf8)), row.expected, row.path)
        }
    }

    /// Names are bytes: one that is not UTF-8 is matched exactly, never as a look-alike.
    func testNamesAreMatchedAsBytes() throws {
        let file = try SumsFile(parsing: Array("\(sha256)  caf".utf8) + [0xE9] + Array("\n".utf8), name: "SUMS")
        XCTAssertNotNil(file.checksum(forPath: Array("caf".utf8) + [0xE9]))
        XCTAssertNil(file.checksum(forPath: Array("café".utf8)))
    }

    /// `-d` is left out of an item's path; an item elsewhere is found by its name alone.
    func testItemsAreMatchedBelowTheDownloadDirectory() throws {
        let file = try parse("\(sha256)  sub/a.bin\n\(md5)  b.bin\n")
        let check = SumsCheck(file, directory: "./out/", requiresChecksums: false)
        let item = { (output: OutputTarget) in DownloadItem(index: 0, url: "http://h/a.bin", output: output) }
        let rows: [(OutputTarget, Checksum?)] = [
            (.path("out/sub/a.bin"), Checksum(algorithm: .sha256, hex: sha256)),
            (.directory("out/sub"), Checksum(algorithm: .sha256, hex: sha256)),
            (.path("/elsewhere/a.bin"), Checksum(algorithm: .sha256, hex: sha256)),
            (.path("out/b.bin"), Checksum(algorithm: .md5, hex: md5)),
            (.path("out/c.bin"), nil),
            (.standardOutput, nil),
        ]
        for (output, expected) in rows {
            switch check.verdict(for: item(output)) {
            case .checksum(let checksum): XCTAssertEqual(checksum, expected, "\(output)")
            case .unchecked: XCTAssertNil(expected, "\(output)")
            case .refused: XCTFail("refused without --require-checksums")
            }
        }
        XCTAssertEqual(check.unnamedCount, 2)
        let required = SumsCheck(file, directory: "out", requiresChecksums: true)
        guard case .refused(let failure) = required.verdict(for: item(.path("out/c.bin"))) else {
            return XCTFail("not refused")
        }
        XCTAssertEqual(failure.exitCode, 10)
        XCTAssertEqual(required.unnamedCount, 0)
    }

    func testTheSummaryNamesTheFileByItsLastPart() throws {
        let file = try SumsFile(parsing: [], name: "https://h/isos/SHA256SUMS?sig=1")
        XCTAssertEqual(SumsCheck(file, directory: nil, requiresChecksums: false).shortName, "SHA256SUMS")
    }
}
