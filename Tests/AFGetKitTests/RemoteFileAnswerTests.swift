@testable import AFGetKit
@testable import AFGetRequest
@testable import AFGetSession
import AFGetSupport
import CurlCore
import XCTest

/// What an FTP or SFTP server said of a file (size, modification time), put as a response
/// head, and the continue rule it then meets: appended only when both still match what the
/// resume data recorded. Rows without a socket.
final class RemoteFileAnswerTests: XCTestCase {
    private static let modified: Int64 = 1_600_000_000
    private static let now: Int64 = 1_700_000_000

    private func answer(
        offset: Int64 = 0, end: Int64? = nil, remaining: Int64?, modified: Int64? = RemoteFileAnswerTests.modified
    ) -> ResponseHead {
        RemoteFileAnswer(offset: offset, end: end, remaining: remaining, modified: modified, now: Self.now, scheme: "ftp")
            .head
    }

    func testTheHeadSaysWhatTheServerSaid() {
        let date = HTTPDate.format(Self.now)
        let time = HTTPDate.format(Self.modified)
        let rows: [(head: ResponseHead, status: Int, headers: [String: String], why: String)] = [
            (
                answer(remaining: 3000), 200, ["Date": date, "Last-Modified": time, "Content-Length": "3000"],
                "the whole file"
            ),
            (answer(remaining: nil, modified: nil), 200, ["Date": date], "neither size nor time given"),
            (
                answer(offset: 1000, remaining: 2000), 206,
                ["Date": date, "Last-Modified": time, "Content-Range": "bytes 1000-2999/3000", "Content-Length": "2000"],
                "the rest from a continue's offset"
            ),
            (
                answer(offset: 3000, remaining: 0), 416, ["Date": date, "Last-Modified": time, "Content-Range": "bytes */3000"],
                "nothing left after the offset"
            ),
            (
                answer(offset: 0, end: 1000, remaining: 3000), 206,
                ["Date": date, "Last-Modified": time, "Content-Range": "bytes 0-999/3000", "Content-Length": "1000"],
                "a split's first range"
            ),
            (
                answer(offset: 1000, end: 2000, remaining: 2000), 206,
                ["Date": date, "Last-Modified": time, "Content-Range": "bytes 1000-1999/3000", "Content-Length": "1000"],
                "a segment inside the file"
            ),
            (
                answer(offset: 2000, end: 4000, remaining: 1000), 206,
                ["Date": date, "Last-Modified": time, "Content-Range": "bytes 2000-2999/3000", "Content-Length": "1000"],
                "a range past the file's end ends with the file"
            ),
            (
                answer(offset: 0, end: 1000, remaining: 0), 416,
                ["Date": date, "Last-Modified": time, "Content-Range": "bytes */0"],
                "an empty file's first range"
            ),
        ]
        var unchanged = RemoteFileAnswer(offset: 0, remaining: 3000, modified: Self.modified, now: Self.now, scheme: "ftp")
        unchanged.notModified = true
        XCTAssertEqual(unchanged.head.status, 304, "a conditional request's file is not newer")
        for row in rows {
            XCTAssertEqual(row.head.status, row.status, row.why)
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: row.head.headers.map { ($0.name, $0.value) }), row.headers, row.why)
        }
    }

    /// Resume data records the time as Last-Modified and the size as the length; a continue is
    /// appended only when both match, and a time less than a second old is no validator.
    func testAContinueNeedsTheSameSizeAndTime() throws {
        let first = answer(remaining: 3000)
        let recorded = EntityValidators(of: first)
        XCTAssertEqual(recorded.lastModified, HTTPDate.format(Self.modified))
        let expectation = ResumeExpectation(
            offset: 1000, expectedTotal: 3000, recorded: recorded, restartsOnFullResponse: true)
        let rows: [(head: ResponseHead, verdict: ResumeExpectation.Verdict, why: String)] = [
            (answer(offset: 1000, remaining: 2000), .append, "same size, same time"),
            (
                answer(offset: 1000, remaining: 2000, modified: Self.modified + 60),
                .changed(
                    .lastModifiedChanged(from: HTTPDate.format(Self.modified), to: HTTPDate.format(Self.modified + 60))),
                "same size, new time"
            ),
            (
                answer(offset: 1000, remaining: 2500),
                .changed(.lengthChanged(from: 3000, to: 3500)), "new size"
            ),
        ]
        for row in rows {
            XCTAssertEqual(expectation.verdict(for: row.head), row.verdict, row.why)
        }
        XCTAssertNil(EntityValidators(of: answer(remaining: 3000, modified: nil)).ifRange, "no time: no validator")
        XCTAssertNil(EntityValidators(of: answer(remaining: 3000, modified: Self.now)).ifRange, "changed this second")
    }

    /// A continue asks from its offset to the end; a split's bounded range from its start to
    /// its end; anything else is the whole file.
    func testTheRequestedRangeComesFromTheRangeHeader() throws {
        let request = try RequestSerializer().request(url: "ftp://127.0.0.1/f.bin", for: .download)
        XCTAssertNil(RemoteFileAnswer.requestedRange(of: request))
        let open = try XCTUnwrap(RemoteFileAnswer.requestedRange(of: request.ranged(from: 4096, ifRange: "x")))
        XCTAssertEqual(open.offset, 4096)
        XCTAssertNil(open.end)
        let bounded = try XCTUnwrap(RemoteFileAnswer.requestedRange(of: request.ranged(from: 4096, to: 8192, ifRange: nil)))
        XCTAssertEqual(bounded.offset, 4096)
        XCTAssertEqual(bounded.end, 8192, "exclusive, as LiveSegment's")
        let first = try XCTUnwrap(RemoteFileAnswer.requestedRange(of: request.ranged(from: 0, to: 1024, ifRange: nil)))
        XCTAssertEqual(first.offset, 0)
        XCTAssertEqual(first.end, 1024)
        XCTAssertNil(RemoteFileAnswer.requestedRange(of: request.ranged(from: 0, ifRange: nil)), "bytes=0- is the whole file")
    }

    /// A part whose file's size the server did not give cannot be checked: refused unwritten
    /// (a split goes on with one connection, a continue starts over); the whole file is fine.
    func testAPartWithoutTheFileSizeIsRefused() throws {
        func unverifiable(offset: Int64, end: Int64?, remaining: Int64?) -> TransferFailure? {
            RemoteFileAnswer(
                offset: offset, end: end, remaining: remaining, modified: Self.modified, now: Self.now, scheme: "ftp"
            )
            .unverifiablePart
        }
        let failure = try XCTUnwrap(unverifiable(offset: 0, end: 1000, remaining: nil))
        XCTAssertEqual(failure.kind, .resumeConflict)
        XCTAssertFalse(failure.entityChanged, "not another file: a server that cannot say")
        XCTAssertNotNil(unverifiable(offset: 1000, end: nil, remaining: nil))
        XCTAssertNil(unverifiable(offset: 0, end: nil, remaining: nil), "the whole file needs no size")
        XCTAssertNil(unverifiable(offset: 1000, end: 2000, remaining: 2000))
    }

    /// A split's segment is judged as an HTTP range: its 206 is appended only when the file's
    /// size and time are the first answer's; a file replaced mid-way is another file.
    func testASegmentNeedsTheFirstAnswersSizeAndTime() {
        let recorded = EntityValidators(of: answer(offset: 0, end: 1000, remaining: 3000))
        let expectation = ResumeExpectation(
            offset: 1000, end: 2000, expectedTotal: 3000, recorded: recorded, restartsOnFullResponse: false)
        XCTAssertEqual(expectation.verdict(for: answer(offset: 1000, end: 2000, remaining: 2000)), .append)
        guard
            case .changed = expectation.verdict(
                for: answer(offset: 1000, end: 2000, remaining: 2000, modified: Self.modified + 1))
        else { return XCTFail("a new time is another file") }
        guard case .changed = expectation.verdict(for: answer(offset: 1000, end: 2000, remaining: 2100)) else {
            return XCTFail("a new size is another file")
        }
    }

    /// `--ssh-host-key-sha256` as ssh-keygen -l prints it or as curl takes it; and the host
    /// key rules: the pin wins, else known_hosts must have the key.
    func testHostKeyPinsAndKnownHosts() throws {
        let key: [UInt8] = Array("ssh-ed25519 key bytes".utf8)
        let fingerprint = key.withUnsafeBytes { SSHHostKey.fingerprint(of: $0) }
        XCTAssertTrue(fingerprint.hasPrefix("SHA256:"))
        XCTAssertFalse(fingerprint.hasSuffix("="))
        let bare = String(fingerprint.dropFirst("SHA256:".count))
        for written in [fingerprint, bare, bare + "="] {
            XCTAssertEqual(SSHHostKey.pin(written), fingerprint, written)
        }
        for bad in ["", "SHA256:", "abc", String(bare.dropLast(4)), "MD5:" + bare] {
            XCTAssertNil(SSHHostKey.pin(bad), bad)
        }
        let host = SSHHostKey.knownHostsName(host: "127.0.0.1", port: 2222)
        XCTAssertEqual(host, "[127.0.0.1]:2222")
        XCTAssertEqual(SSHHostKey.knownHostsName(host: "example.org", port: 22), "example.org")
        func refusal(pinned: String?, _ match: SSHHostKey.KnownHostsMatch) -> TransferFailure? {
            SSHHostKey.refusal(
                fingerprint: fingerprint, host: host, pinned: pinned, match: match, knownHosts: "/h/.ssh/known_hosts")
        }
        XCTAssertNil(refusal(pinned: nil, .matches))
        XCTAssertNil(refusal(pinned: fingerprint, .absent), "a pin needs no known_hosts")
        for (pinned, match) in [(nil, .absent), (nil, .differs), ("SHA256:other", .matches)]
            as [(String?, SSHHostKey.KnownHostsMatch)]
        {
            let failure = try XCTUnwrap(refusal(pinned: pinned, match))
            XCTAssertEqual(failure.exitCode, 5)
            XCTAssertTrue(failure.message.contains(host) && failure.message.contains(fingerprint), failure.message)
        }
    }
}
