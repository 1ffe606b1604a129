import Foundation
import TestServer
import XCTest

/// `-J`: the server names the file, and no name it sends can put a file outside the directory,
/// hide it, or smuggle control characters in.
final class ContentDispositionTests: ServerTestCase {
    /// Downloads with `-J -d work` a file whose Content-Disposition is `value`; returns what is in
    /// `work`, after checking nothing appeared beside it.
    private func download(
        _ value: String, urlName: String = "plain.bin", extra: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String] {
        let cd = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let result = try Afget.run(
            ["-q", "-J", "-d", "work"] + extra + [server.url("/disposition/\(urlName)?cd=\(cd)")],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(listing(directory), ["work"], "nothing outside the directory", file: file, line: line)
        let names = listing(directory.appendingPathComponent("work"))
        for name in names {
            XCTAssertEqual(
                sha256Hex(ofFile: directory.appendingPathComponent("work/\(name)").path), TestPayload.sha256(count: 1000),
                file: file, line: line)
        }
        return names
    }

    func testTheServersNameIsUsed() throws {
        XCTAssertEqual(try download("attachment; filename=\"report 2026.pdf\""), ["report 2026.pdf"])
    }

    func testTheExtendedNameIsPreferredAndDecoded() throws {
        XCTAssertEqual(
            try download("attachment; filename=\"fallback.txt\"; filename*=UTF-8''na%C3%AFve%20file.txt"),
            ["naïve file.txt"])
        try FileManager.default.removeItem(at: directory.appendingPathComponent("work"))
        XCTAssertEqual(try download("attachment; filename*=iso-8859-1'en'caf%E9.txt"), ["café.txt"])
    }

    func testHostileNamesStayInsideTheDirectoryAndVisible() throws {
        let cases: [(String, String)] = [
            ("attachment; filename=\"../evil.txt\"", "_evil.txt"),
            ("attachment; filename=\"/etc/passwd\"", "_etc_passwd"),
            ("attachment; filename=\"..\\\\x\"", "_x"),
            ("attachment; filename=\".bashrc\"", "bashrc"),
            ("attachment; filename*=UTF-8''..%2F..%2Fetc%2Fcron.d%2Fx", "_.._etc_cron.d_x"),
            ("attachment; filename=\"red\u{1B}[31mtext\u{07}.txt\"", "red[31mtext.txt"),
            ("attachment; filename=\"invoice\u{202E}fdp.exe\"", "invoicefdp.exe"),
            ("attachment; filename=\"...\"", "plain.bin"),
            ("attachment; filename=\"\"", "plain.bin"),
            ("attachment; filename=\"a\\\"b;c=d.txt\"", "a\"b;c=d.txt"),
            ("attachment; filename=\"tab\tname.txt\"", "tabname.txt"),
            ("inline", "plain.bin"),
            // Names of afget's own files beside another download keep the URL's name.
            ("attachment; filename=\"other.iso.afpart\"", "plain.bin"),
            ("attachment; filename=\"other.iso.afresume\"", "plain.bin"),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(try download(value), [expected], value.debugDescription)
            try FileManager.default.removeItem(at: directory.appendingPathComponent("work"))
        }
    }

    func testANameTooLongIsShortenedToFitItsPartAndResumeFiles() throws {
        let long = String(repeating: "n", count: 300) + ".txt"
        let names = try download("attachment; filename=\"\(long)\"")
        XCTAssertEqual(names.count, 1)
        XCTAssertLessThanOrEqual(names[0].utf8.count, 255 - ".afresume".utf8.count)
        XCTAssertTrue(names[0].hasPrefix("nnnn"), names[0])
    }

    /// Shortened, a name keeps its extension: it still opens as what it is.
    func testAShortenedNameKeepsItsExtension() throws {
        for ending in [".pdf", ".tar.gz"] {
            let long = "report-" + String(repeating: "r", count: 300) + ending
            let names = try download("attachment; filename=\"\(long)\"")
            XCTAssertEqual(names.count, 1)
            XCTAssertLessThanOrEqual(names[0].utf8.count, 255 - ".afresume".utf8.count)
            XCTAssertTrue(names[0].hasPrefix("report-rrr"), names[0])
            XCTAssertTrue(names[0].hasSuffix(ending), names[0])
            XCTAssertTrue(names[0].dropLast(ending.count).contains("~"), "a hash tells shortened names apart: \(names[0])")
            try FileManager.default.removeItem(at: directory.appendingPathComponent("work"))
        }
    }

    func testAnExistingFileUnderTheServersNameFollowsOnExists() throws {
        let work = directory.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: work.appendingPathComponent("taken.txt"))
        let value = "attachment; filename=taken.txt"
        let cd = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let url = server.url("/disposition/u.bin?cd=\(cd)")
        let skipped = try Afget.run(["-J", "--progress", "line", "-d", "work", url], in: directory)
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertTrue(skipped.stderr.contains("skipping work/taken.txt"), skipped.stderr)
        XCTAssertEqual(listing(work), ["taken.txt"])
        XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("taken.txt"), encoding: .utf8), "mine")
        let refused = try Afget.run(["-q", "-J", "--on-exists", "error", "-d", "work", url], in: directory)
        XCTAssertEqual(refused.status, 11)
        XCTAssertTrue(refused.stderr.contains("work/taken.txt already exists (--on-exists error)"), refused.stderr)
        XCTAssertEqual(listing(work), ["taken.txt"], "nothing is left of the refused download")
        let renamed = try Afget.run(["-q", "-J", "--on-exists", "rename", "-d", "work", url], in: directory)
        XCTAssertEqual(renamed.status, 0, renamed.stderr)
        XCTAssertEqual(listing(work), ["taken.1.txt", "taken.txt"])
    }

    /// The server's name is known as the response starts: a file of that name that stays (or
    /// refuses) ends the item there, so a body that would never finish is not waited for.
    func testAnExistingFileUnderTheServersNameIsSeenBeforeTheBodyComes() throws {
        let work = directory.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: work.appendingPathComponent("taken.txt"))
        let cd = "attachment; filename=taken.txt".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        // 64 KiB arrive, then nothing: before, afget waited for the rest and failed at the stall timeout.
        let url = server.url("/disposition/u.bin?cd=\(cd)&size=1000000&stall=65536")
        let skipped = try Afget.run(
            ["-J", "--progress", "line", "--stall-timeout", "5", "--retry", "0", "-d", "work", url], in: directory)
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertTrue(skipped.stderr.contains("skipping work/taken.txt: already exists"), skipped.stderr)
        let refused = try Afget.run(
            ["-J", "--on-exists", "error", "--stall-timeout", "5", "--retry", "0", "-d", "work", url], in: directory)
        XCTAssertEqual(refused.status, 11, refused.stderr)
        XCTAssertEqual(listing(work), ["taken.txt"])
        XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("taken.txt"), encoding: .utf8), "mine")
    }

    /// The server's name is resolved once, as the response starts; a file that takes that name
    /// while the body arrives is refused by the move into place, never replaced.
    func testAFileThatTakesTheServersNameMeanwhileIsLeftAsItIs() throws {
        let cd = "attachment; filename=late.txt".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let url = server.url("/file/u.bin?size=400000&chunk=40000&ms=50&cd=\(cd)")
        let (process, _, stderr) = try Afget.start(["-J", "--progress", "line", url], in: directory)
        waitUntil("the item is shown under the server's name") {
            ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains("late.txt: started")
        }
        let theirs = directory.appendingPathComponent("late.txt")
        try Data("mine".utf8).write(to: theirs)
        process.waitUntilExit()
        let messages = try String(contentsOf: stderr, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 0, messages)
        XCTAssertEqual(try String(contentsOf: theirs, encoding: .utf8), "mine", messages)
        XCTAssertTrue(messages.contains("skipping late.txt"), messages)
        XCTAssertEqual(listing(directory), ["late.txt"], "nothing else left for a small body")
    }

    func testTheItemIsShownUnderTheServersNameOnceTheResponseStarts() throws {
        let cd = "attachment; filename=server.txt".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let result = try Afget.run(
            ["-J", "--progress", "json", "-d", "work", server.url("/disposition/x.bin?cd=\(cd)")],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertTrue(
            events.contains { $0.contains("\"event\":\"queued\"") && $0.contains("\"path\":\"work/x.bin\"") }, result.stdoutText)
        for name in ["started", "done"] {
            XCTAssertTrue(
                events.contains { $0.contains("\"event\":\"\(name)\"") && $0.contains("\"path\":\"work/server.txt\"") },
                "\(name): \(result.stdoutText)")
        }
    }

    /// `afget resume` names the file as the interrupted `afget -J` would have: its resume data says so.
    func testResumeCommandKeepsTheServersName() throws {
        let size = 4_000_000
        let cd = "attachment; filename=server.bin".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let url = server.url("/file/u.bin?size=\(size)&chunk=20000&ms=20&fastfrom=2000000&cd=\(cd)")
        let resumeData = directory.appendingPathComponent("u.bin.afresume")
        let (process, _, _) = try Afget.start(["-J", "--progress", "line", url], in: directory)
        waitUntil("a checkpoint beyond 100000 bytes") { (checkpointedBytes(resumeData) ?? 0) > 100_000 }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)

        let result = try Afget.run(["resume", "--progress", "line"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("server.bin: continuing at "), result.stderr)
        XCTAssertEqual(listing(directory), ["server.bin"])
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("server.bin").path), TestPayload.sha256(count: size))
    }

    func testOutputNamedOnTheCommandLineWins() throws {
        let cd = "attachment; filename=server.txt".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let result = try Afget.run(["-q", "-J", "-o", "mine.bin", server.url("/disposition/x.bin?cd=\(cd)")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), ["mine.bin"])
    }
}
