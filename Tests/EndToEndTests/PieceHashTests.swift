import Foundation
import TestServer
import XCTest

/// A Metalink document's piece hashes: a piece that does not match is known at once and fetched
/// again from another source (one that alone served it is dropped), instead of the whole file
/// failing or being fetched again. `flip=K` on the test server sends byte K inverted: a mirror
/// that corrupts one piece.
final class PieceHashTests: TwoServerTestCase {
    private static let size = 2_000_000
    private static let pieceLength = 262_144
    /// In piece 0 (bytes 0-262143), which the preferred source serves first in every case.
    private static let flipped = 100_000

    /// A document describing `p.bin` of `size` bytes by its pieces' SHA-256 (and its whole
    /// SHA-256 when `wholeHash`), at `urls` in order of preference.
    private func writeDocument(urls: [String], wholeHash: Bool = true) throws {
        let size = Self.size
        let pieces = stride(from: 0, to: size, by: Self.pieceLength).map { start in
            "<hash>\(sha256Hex(TestPayload.bytes(start..<min(size, start + Self.pieceLength))))</hash>"
        }
        let whole = wholeHash ? "<hash type=\"sha-256\">\(TestPayload.sha256(count: size))</hash>" : ""
        let sources = urls.enumerated().map { index, url in
            "<url priority=\"\(index + 1)\">\(url.replacingOccurrences(of: "&", with: "&amp;"))</url>"
        }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
          <file name="p.bin">
            <size>\(size)</size>
            \(whole)
            <pieces length="\(Self.pieceLength)" type="sha-256">\(pieces.joined())</pieces>
            \(sources.joined(separator: "\n"))
          </file>
        </metalink>
        """.write(to: directory.appendingPathComponent("p.meta4"), atomically: true, encoding: .utf8)
    }

    private var corrupting: String {
        server.url("/file/p.bin?size=\(Self.size)&flip=\(Self.flipped)&chunk=100000&ms=5")
    }

    private var good: String {
        second.url("/file/p.bin?size=\(Self.size)&chunk=100000&ms=5")
    }

    private func droppedForPiece0(_ stderr: String, _ source: String) -> Int {
        stderr.components(separatedBy: "\n").filter {
            $0.contains("dropping source \(source) (piece 0 did not match its sha-256 hash)")
        }.count
    }

    /// With segments: the corrupting mirror, listed first, is dropped as soon as the piece it
    /// served is checked, and only that piece comes again; no search for the source at fault.
    func testWithSegmentsABadPieceIsFetchedAgainFromAnotherSource() throws {
        try writeDocument(urls: [corrupting, good])

        let result = try Afget.run(["--metalink", "p.meta4", "-s", "4", "--min-split-size", "128K"], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("p.bin"), TestPayload.sha256(count: Self.size))
        XCTAssertEqual(droppedForPiece0(result.stderr, corrupting), 1, result.stderr)
        XCTAssertFalse(result.stderr.contains("source at fault"), result.stderr)
        XCTAssertLessThanOrEqual(
            server.payloadBytesSent + second.payloadBytesSent, Self.size + Self.pieceLength,
            "at most the bad piece is fetched twice")
        XCTAssertEqual(listing(directory), ["p.bin", "p.meta4"])
    }

    /// With one connection and piece hashes alone (no whole-file hash): the preferred source
    /// serves every byte, the pieces are checked at the end, and the bad one alone comes from
    /// the other source.
    func testWithOneConnectionTheBadPieceAloneComesFromTheOtherSource() throws {
        try writeDocument(urls: [corrupting, good], wholeHash: false)

        let result = try Afget.run(["--metalink", "p.meta4"], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("p.bin"), TestPayload.sha256(count: Self.size))
        XCTAssertEqual(droppedForPiece0(result.stderr, corrupting), 1, result.stderr)
        XCTAssertEqual(second.payloadBytesSent, Self.pieceLength, "the other source sent the bad piece only")
    }

    /// One source with a bad piece: exit 10 naming the piece, nothing at DEST, the data kept;
    /// the document given a second source, the next run fetches only that piece from it.
    func testABadPieceWithNoOtherSourceFailsAndAnotherSourceMendsItNextRun() throws {
        try writeDocument(urls: [corrupting])

        let failed = try Afget.run(["-q", "--metalink", "p.meta4", "-s", "4", "--min-split-size", "128K"], in: directory)

        XCTAssertEqual(failed.status, 10, failed.stderr)
        XCTAssertTrue(
            failed.stderr.contains("checksum mismatch: piece 0 (bytes 0-262143): expected sha-256"), failed.stderr)
        XCTAssertEqual(listing(directory), ["p.bin.afpart", "p.bin.afresume", "p.meta4"])

        try writeDocument(urls: [corrupting, good])
        let mended = try Afget.run(["--metalink", "p.meta4", "-s", "4", "--min-split-size", "128K"], in: directory)

        XCTAssertEqual(mended.status, 0, mended.stderr)
        XCTAssertEqual(sha("p.bin"), TestPayload.sha256(count: Self.size))
        XCTAssertEqual(droppedForPiece0(mended.stderr, corrupting), 1, mended.stderr)
        XCTAssertEqual(second.payloadBytesSent, Self.pieceLength, "the second source sent the bad piece only")
        XCTAssertEqual(listing(directory), ["p.bin", "p.meta4"])
    }

    /// The other source has no ranges (Python's http.server): once the corrupting one is
    /// dropped, the bad piece can come only with the whole file, which the other source sends
    /// from the start (its length and date are the file's), and every piece is checked again.
    func testAMirrorWithoutRangesSendsTheWholeFileInstead() throws {
        let whole = second.url("/file/p.bin?size=\(Self.size)&ranges=ignore")
        try writeDocument(urls: [corrupting, whole])

        let result = try Afget.run(["-q", "--metalink", "p.meta4"], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("p.bin"), TestPayload.sha256(count: Self.size))
        XCTAssertEqual(droppedForPiece0(result.stderr, corrupting), 1, result.stderr)
        XCTAssertEqual(listing(directory), ["p.bin", "p.meta4"])
    }
}
