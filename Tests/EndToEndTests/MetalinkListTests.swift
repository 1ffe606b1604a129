import Foundation
import TestServer
import XCTest

/// A list line naming a Metalink document (`release.meta4`, `https://host/x.meta4`) stands for
/// every file the document describes, as `--metalink` would: named below -d (and the line's
/// dir=), checked by their hashes, their other URLs as mirrors.
final class MetalinkListTests: ServerTestCase {
    private func document(_ files: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <metalink xmlns="urn:ietf:params:xml:ns:metalink">
        \(files)
        </metalink>
        """
    }

    private func file(_ name: String, size: Int, urls: [String]) -> String {
        """
        <file name="\(name)">
          <hash type="sha-256">\(TestPayload.sha256(count: size))</hash>
          \(urls.enumerated().map { "<url priority=\"\($0 + 1)\">\(xmlEscaped($1))</url>" }.joined(separator: "\n  "))
        </file>
        """
    }

    private func xmlEscaped(_ url: String) -> String {
        url.replacingOccurrences(of: "&", with: "&amp;")
    }

    private func write(_ text: String, to name: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    private func sha(_ path: String) -> String? {
        sha256Hex(ofFile: directory.appendingPathComponent(path).path)
    }

    func testLocalAndFetchedDocumentsAmongPlainURLs() throws {
        let dead = "http://127.0.0.1:\(try freePort())"
        try write(
            document(
                file("l/a.bin", size: 3000, urls: [server.url("/file/a.bin?size=3000")])
                    + file("b.bin", size: 5000, urls: ["\(dead)/b.bin", server.url("/file/b.bin?size=5000")])),
            to: "local.meta4")
        server.publish(
            Array(document(file("r/c.bin", size: 4000, urls: [server.url("/file/c.bin?size=4000")])).utf8),
            at: "/site/example.org/remote.META4")
        let list = """
            \(server.url("/file/p1.bin?size=1000"))
            local.meta4
              dir=sub
            \(server.url("/site/example.org/remote.META4?token=1"))
            \(server.url("/file/p2.bin?size=2000"))
            """
        try write(list, to: "urls.txt")

        let result = try Afget.run(
            ["--progress", "line", "-H", "X-Token: abc", "-i", "urls.txt", "-d", "out"], in: directory)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, Data(), "stdout carries data only")
        for (path, size) in [("p1.bin", 1000), ("sub/l/a.bin", 3000), ("sub/b.bin", 5000), ("r/c.bin", 4000), ("p2.bin", 2000)] {
            XCTAssertEqual(sha("out/\(path)"), TestPayload.sha256(count: size), path)
        }
        XCTAssertTrue(result.stderr.contains("dropping source \(dead)/b.bin"), "its other URL is a mirror: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("5 downloaded, 0 skipped, 0 failed"), result.stderr)
        let requests = server.log.all
        XCTAssertEqual(
            requests.first?.uri, "/site/example.org/remote.META4?token=1", "the list's documents are read before any transfer")
        XCTAssertEqual(requests.first?.header("X-Token"), "abc", "with the run's headers")
        XCTAssertEqual(requests.filter { $0.uri.hasPrefix("/site/") }.count, 1, "fetched once")

        // From a pipe, a document is read where its line arrives: the same files.
        let piped = try Afget.run(["-q", "-i", "-", "-d", "piped"], in: directory, input: Data(list.utf8))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stderrLines.count, 1, piped.stderr)
        XCTAssertTrue(piped.stderr.contains("dropping source \(dead)/b.bin"), "the only notice of -q: \(piped.stderr)")
        XCTAssertEqual(
            listing(directory.appendingPathComponent("piped")).sorted(), ["p1.bin", "p2.bin", "r", "sub"], piped.stderr)
        XCTAssertEqual(sha("piped/r/c.bin"), TestPayload.sha256(count: 4000))
        XCTAssertEqual(sha("piped/sub/b.bin"), TestPayload.sha256(count: 5000))
    }

    /// A document that cannot be read, fetched or used fails its line's item, named by the list's
    /// line and the document's own place; the other items go on, and the exit status is the
    /// lowest class among the failures (2 for a bad document, 8 for an HTTP error).
    func testADocumentThatCannotBeUsedFailsItsLineAndTheOthersGoOn() throws {
        try write(document("<file name=\"x.bin\"><url>\(server.url("/file/x.bin?size=10"))</url>"), to: "broken.meta4")
        try write(
            document(file("../escape.bin", size: 100, urls: [server.url("/file/escape.bin?size=100")])), to: "escape.meta4")
        let missing = server.url("/status/404/gone.meta4")
        try write(
            """
            \(server.url("/file/g1.bin?size=1000"))
            broken.meta4
            escape.meta4
            absent.meta4
            \(missing)
            \(server.url("/file/g2.bin?size=2000"))
            """, to: "urls.txt")

        let result = try Afget.run(["-q", "-i", "urls.txt", "-d", "out"], in: directory)

        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(result.stdout, Data())
        XCTAssertEqual(sha("out/g1.bin"), TestPayload.sha256(count: 1000))
        XCTAssertEqual(sha("out/g2.bin"), TestPayload.sha256(count: 2000))
        XCTAssertEqual(listing(directory.appendingPathComponent("out")).sorted(), ["g1.bin", "g2.bin"])
        let lines = result.stderrLines
        XCTAssertEqual(lines.count, 5, result.stderr)
        XCTAssertEqual(lines.last?.hasPrefix("afget: 2 downloaded, 0 skipped, 4 failed"), true, result.stderr)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("afget: urls.txt:2: broken.meta4:") && $0.contains("not well-formed XML") },
            result.stderr)
        XCTAssertTrue(
            lines.contains(
                "afget: urls.txt:3: escape.meta4:3: name=../escape.bin must be a relative file name, without .. and not ending in / or ."
            ),
            result.stderr)
        XCTAssertTrue(lines.contains("afget: urls.txt:4: absent.meta4: cannot read it: No such file or directory"), result.stderr)
        XCTAssertTrue(lines.contains("afget: urls.txt:5: Metalink document \(missing): HTTP 404 Not Found"), result.stderr)
        XCTAssertFalse(server.log.all.contains { $0.uri.contains("escape") || $0.uri.contains("x.bin") })

        try write("\(server.url("/file/g3.bin?size=3000"))\n\(missing)\n", to: "fetch.txt")
        let fetchFailed = try Afget.run(["-q", "-i", "fetch.txt", "-d", "out"], in: directory)
        XCTAssertEqual(fetchFailed.status, 8, "a fetch's failure keeps its class: \(fetchFailed.stderr)")
        XCTAssertEqual(sha("out/g3.bin"), TestPayload.sha256(count: 3000))
    }

    /// The files of a document are the same items in every run: Ctrl-C, then the same command
    /// continues a file from the bytes it kept.
    func testCtrlCThenTheSameCommandContinuesADocumentsFile() throws {
        let size = 2 << 20
        let heldAt = 1 << 20
        server.publish(
            Array(
                document(file("big/held.bin", size: size, urls: [server.url("/file/held.bin?size=\(size)&holdafter=\(heldAt)")]))
                    .utf8),
            at: "/site/example.org/held.meta4")
        try write(server.url("/site/example.org/held.meta4") + "\n", to: "urls.txt")
        let part = directory.appendingPathComponent("big/held.bin.afpart")

        let (process, _, stderr) = try Afget.start(["--progress", "line", "-i", "urls.txt"], in: directory)
        waitUntil("the held bytes are written") { fileSize(part) == heldAt }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stopped = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 130, stopped)

        let again = try Afget.run(["--progress", "line", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("continuing at 50%"), again.stderr)
        XCTAssertEqual(sha("big/held.bin"), TestPayload.sha256(count: size))
        XCTAssertEqual(
            server.log.all.last { $0.uri.hasPrefix("/file/held.bin") }?.header("Range"), "bytes=\(heldAt)-",
            "only the rest is fetched")
    }
}
