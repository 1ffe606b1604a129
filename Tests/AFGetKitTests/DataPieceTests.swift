@testable import AFGetRequest
@testable import AFGetSupport
import Glibc
import XCTest

/// curl's body options as pieces (`DataPiece`): the bytes each makes and how they are joined,
/// with the headers curl sends, as curl 7.88 sends them. Files come from a table; no sockets.
final class DataPieceTests: XCTestCase {
    private let files: [String: [UInt8]] = [
        "form.txt": Array("a=1\r\nb=2\n".utf8),
        "doc.json": Array("{\"k\":\r\n[1]}\n".utf8),
        "-": Array("from\nstdin".utf8),
        "bytes.bin": [0x00, 0x0D, 0x0A, 0xFF, 0x20],
    ]

    private func body(_ pieces: [DataPiece]) throws -> RequestSerializer.RawBody {
        try DataPiece.body(of: pieces) { path throws(TransferFailure) in
            guard let bytes = files[path] else { throw fileFailure(.read, path, errno: ENOENT) }
            return bytes
        }
    }

    private func text(_ pieces: [DataPiece]) throws -> String {
        guard case .bytes(let bytes) = try body(pieces).source else { return "(not read)" }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testEachOptionsBytes() throws {
        let rows: [(DataPiece, String)] = [
            (DataPiece(.data, "a=1&b=2"), "a=1&b=2"),
            (DataPiece(.data, "@form.txt"), "a=1b=2"),  // CR and LF dropped
            (DataPiece(.data, "@-"), "fromstdin"),
            (DataPiece(.data, ""), ""),
            (DataPiece(.raw, "@form.txt"), "@form.txt"),
            (DataPiece(.binary, "x y"), "x y"),
            (DataPiece(.urlencode, "two words&é"), "two%20words%26%C3%A9"),
            (DataPiece(.urlencode, "=a=b c"), "a%3Db%20c"),
            (DataPiece(.urlencode, "name=a b/c"), "name=a%20b%2Fc"),
            (DataPiece(.urlencode, "@form.txt"), "a%3D1%0D%0Ab%3D2%0A"),
            (DataPiece(.urlencode, "f@form.txt"), "f=a%3D1%0D%0Ab%3D2%0A"),
            // The first "=" wins over an earlier "@": the name is "a@b", as it is.
            (DataPiece(.urlencode, "a@b=c d"), "a@b=c%20d"),
            (DataPiece(.json, #"{"a": 1}"#), #"{"a": 1}"#),
        ]
        for (piece, expected) in rows {
            XCTAssertEqual(try text([piece]), expected, "\(piece)")
        }
        XCTAssertEqual(
            try body([DataPiece(.urlencode, "b@bytes.bin")]).source, .bytes(Array("b=%00%0D%0A%FF%20".utf8)),
            "bytes that are not UTF-8, encoded one by one")
    }

    /// Pieces are joined in the order given with "&"; a --json piece is added as it is.
    func testPiecesAreJoinedAsCurlJoinsThem() throws {
        XCTAssertEqual(
            try text([DataPiece(.data, "a=1"), DataPiece(.urlencode, "b=x y"), DataPiece(.binary, "c=3")]), "a=1&b=x%20y&c=3")
        XCTAssertEqual(try text([DataPiece(.json, #"{"drink":"#), DataPiece(.json, #" "coffee"}"#)]), #"{"drink": "coffee"}"#)
        XCTAssertEqual(try text([DataPiece(.data, "@form.txt"), DataPiece(.data, "c=3")]), "a=1b=2&c=3")
        XCTAssertEqual(try text([DataPiece(.binary, "@form.txt"), DataPiece(.data, "")]), "a=1\r\nb=2\n&")
    }

    func testTheHeadersCurlSends() throws {
        let form = try body([DataPiece(.data, "a=1")])
        XCTAssertEqual(form.contentType, "application/x-www-form-urlencoded")
        XCTAssertNil(form.accept)
        let json = try body([DataPiece(.data, "a"), DataPiece(.json, "{}")])
        XCTAssertEqual(json.contentType, "application/json")
        XCTAssertEqual(json.accept, "application/json")
    }

    /// One --data-binary or --json file is streamed from the file (or standard input), not read.
    func testOneBinaryFileIsStreamed() throws {
        XCTAssertEqual(try body([DataPiece(.binary, "@big.iso")]).source, .file(path: "big.iso"))
        XCTAssertEqual(try body([DataPiece(.json, "@-")]).source, .standardInput)
        XCTAssertEqual(
            try body([DataPiece(.binary, "@bytes.bin"), DataPiece(.raw, "x")]).source, .bytes([0, 13, 10, 255, 32, 38, 120]))
        XCTAssertThrowsError(try body([DataPiece(.data, "@missing.txt")])) { error in
            XCTAssertEqual((error as? TransferFailure)?.message, "cannot read missing.txt: No such file or directory")
        }
    }
}
