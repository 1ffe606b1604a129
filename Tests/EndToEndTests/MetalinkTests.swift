import Foundation
import TestServer
import XCTest

/// `--metalink FILE`: every file a Metalink v4 document describes, named as it says, fetched
/// from its most preferred URL and checked against its strongest hash.
final class MetalinkTests: ServerTestCase {
    private func writeDocument(_ files: String) throws {
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
        \(files)
        </metalink>
        """.write(to: directory.appendingPathComponent("files.meta4"), atomically: true, encoding: .utf8)
    }

    func testEveryFileIsFetchedFromItsPreferredURLAndCheckedByItsHash() throws {
        let dead = "http://127.0.0.1:\(try freePort())"
        try writeDocument(
            """
            <file name="iso/a.bin">
              <size>3000</size>
              <hash type="md5">\(String(repeating: "0", count: 32))</hash>
              <hash type="sha-256">\(TestPayload.sha256(count: 3000))</hash>
              <url priority="2">\(dead)/a.bin</url>
              <url priority="1">\(server.url("/file/a.bin?size=3000"))</url>
            </file>
            <file name="b.bin">
              <hash type="sha-256">\(String(repeating: "0", count: 64))</hash>
              <url>\(server.url("/file/b.bin?size=5000"))</url>
            </file>
            """)

        let result = try Afget.run(["-q", "--metalink", "files.meta4", "-d", "out"], in: directory)

        XCTAssertEqual(result.status, 10, result.stderr)
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("out/iso/a.bin").path), TestPayload.sha256(count: 3000),
            "the strongest hash decides, not the wrong md5")
        XCTAssertFalse(
            exists(directory.appendingPathComponent("out/b.bin")), "a file that fails its hash is not moved into place")
        XCTAssertEqual(fileSize(directory.appendingPathComponent("out/b.bin.afpart")), 5000, "its bytes are kept")
        XCTAssertTrue(result.stderr.contains("checksum mismatch"), result.stderr)
    }

    /// A file's other URLs are its mirrors: its preferred URL down, the next one serves it.
    func testAFilesOtherURLsAreItsMirrors() throws {
        let dead = "http://127.0.0.1:\(try freePort())"
        try writeDocument(
            """
            <file name="c.bin">
              <size>40000</size>
              <hash type="sha-256">\(TestPayload.sha256(count: 40000))</hash>
              <url priority="1">\(dead)/c.bin</url>
              <url priority="2">\(server.url("/file/c.bin?size=40000"))</url>
            </file>
            """)

        let result = try Afget.run(["--metalink", "files.meta4", "-d", "out"], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("out/c.bin").path), TestPayload.sha256(count: 40000))
        XCTAssertTrue(result.stderr.contains("dropping source \(dead)/c.bin"), result.stderr)
    }

    func testADocumentThatCannotBeUsedIsRefusedBeforeAnyTransfer() throws {
        try writeDocument(
            """
            <file name="good.bin"><url>\(server.url("/file/good.bin?size=100"))</url></file>
            <file name="../escape.bin"><url>\(server.url("/file/escape.bin?size=100"))</url></file>
            """)

        let result = try Afget.run(["-q", "--metalink", "files.meta4", "-d", "out"], in: directory)

        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(
            result.stderrLines,
            ["afget: files.meta4:4: name=../escape.bin must be a relative file name, without .. and not ending in / or ."])
        XCTAssertTrue(server.log.all.isEmpty, "no request before the document is checked whole")
        XCTAssertFalse(exists(directory.appendingPathComponent("out")))
    }

    func testADocumentGivenByURLIsFetchedFirstWithTheRunsSettings() throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <file name="c.bin">
                <hash type="sha-256">\(TestPayload.sha256(count: 4000))</hash>
                <url>\(server.url("/file/c.bin?size=4000"))</url>
              </file>
            </metalink>
            """
        server.publish(Array(document.utf8), at: "/site/example.org/files.meta4")

        let result = try Afget.run(
            ["-q", "-H", "X-Token: abc", "--metalink", server.url("/site/example.org/files.meta4"), "-d", "out"],
            in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("out/c.bin").path), TestPayload.sha256(count: 4000))
        let requests = server.log.all
        XCTAssertEqual(requests.map { String($0.uri.prefix(10)) }, ["/site/exam", "/file/c.bi"], "the document first")
        XCTAssertEqual(requests.first?.header("X-Token"), "abc", "with the run's headers")

        let missing = try Afget.run(["-q", "--metalink", server.url("/status/404"), "-d", "out"], in: directory)
        XCTAssertEqual(missing.status, 8, missing.stderr)
        XCTAssertEqual(missing.stderrLines, ["afget: --metalink \(server.url("/status/404")): HTTP 404 Not Found"])
    }

    /// The document's fetch and the run share one stop: Ctrl-C during a file of a document
    /// fetched by URL ends the run in order (it was ignored once the fetch's own watch ended).
    func testCtrlCAfterTheDocumentWasFetchedStopsTheRun() throws {
        let (size, heldAt) = (2 << 20, 1 << 20)
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <file name="held.bin"><url>\(server.url("/file/held.bin?size=\(size)&amp;holdafter=\(heldAt)"))</url></file>
            </metalink>
            """
        server.publish(Array(document.utf8), at: "/site/example.org/held.meta4")
        let (process, _, stderr) = try Afget.start(
            ["--progress", "line", "--metalink", server.url("/site/example.org/held.meta4"), "-d", "out"], in: directory)
        waitUntil("the held bytes are written") { fileSize(directory.appendingPathComponent("out/held.bin.afpart")) == heldAt }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let said = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 130, said)
        XCTAssertTrue(said.contains("afget: interrupted"), said)
    }
}
