import Foundation
import TestServer
import XCTest

/// Downloads and uploads over FTP and FTPS against real servers (pyftpdlib, vsftpd): exact
/// files, their times, refusals in their own words and exit statuses, Ctrl-C then continue,
/// and a file replaced on the server between two runs started over, never spliced.
final class FTPTests: XCTestCase {
    private var directory: URL!
    private static let modified = Date(timeIntervalSince1970: 1_600_000_000)

    override func setUpWithError() throws {
        directory = try makeScratchDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testADownloadIsExactWithItsTimeAndRefusalsSayWhy() throws {
        let ftp = try PyFTPServer()
        let sha = try writeRandomFile(ftp.root.appendingPathComponent("f.bin"), count: 300_000, modified: Self.modified)

        let anonymous = try Afget.run(["-q", ftp.url("f.bin")], in: directory)
        XCTAssertEqual(anonymous.status, 0, anonymous.stderr)
        let file = directory.appendingPathComponent("f.bin")
        XCTAssertEqual(sha256Hex(ofFile: file.path), sha)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date, Self.modified)
        // MDTM answers `--on-exists update`: a file no newer than the local one is not fetched.
        let update = try Afget.run(["--progress", "line", "--on-exists", "update", ftp.url("f.bin")], in: directory)
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stderr.contains("skipping f.bin: not modified on the server"), update.stderr)

        // Credentials in the URL reach the server and nothing else: not the output, not the report.
        let named = try Afget.run(
            ["--progress", "json", "--report", "report.json", "-d", "named", ftp.url("f.bin", user: "alice:secret@")],
            in: directory)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("named/f.bin").path), sha)
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        XCTAssertFalse((report + named.stdoutText + named.stderr).contains("secret"), report)
        XCTAssertTrue(report.contains("\"http_status\":null"), "no HTTP status over FTP: \(report)")

        let active = try Afget.run(["-q", "--ftp-active", "-d", "active", ftp.url("f.bin")], in: directory)
        XCTAssertEqual(active.status, 0, active.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("active/f.bin").path), sha)

        let refusedLogin = try Afget.run(["-q", "-u", "alice:wrong", "-o", "x.bin", ftp.url("f.bin")], in: directory)
        XCTAssertEqual(refusedLogin.status, 6, refusedLogin.stderr)
        XCTAssertEqual(refusedLogin.stderrLines.count, 1, refusedLogin.stderr)
        XCTAssertTrue(refusedLogin.stderr.contains("the server refused the login"), refusedLogin.stderr)

        let missing = try Afget.run(["--progress", "json", ftp.url("none.bin")], in: directory)
        XCTAssertEqual(missing.status, 8, missing.stderr)
        XCTAssertTrue(missing.stderr.contains(": the server has no such file"), missing.stderr)
        XCTAssertTrue(
            String(decoding: missing.stdout, as: UTF8.self).contains("\"reason\":\"no-such-file\""),
            "the JSON event's reason code")

        let directoryURL = try Afget.run(["-q", ftp.url("")], in: directory)
        XCTAssertEqual(directoryURL.status, 2, directoryURL.stderr)
        XCTAssertEqual(
            directoryURL.stderrLines,
            ["afget: \(ftp.url("")): a directory (the URL ends with /): afget downloads files; name one in the directory"])
        XCTAssertEqual(Set(listing(directory)), ["active", "f.bin", "named", "report.json"], "nothing left of the failures")
    }

    func testCtrlCThenTheSameCommandContinuesExactly() throws {
        let ftp = try PyFTPServer()
        let sha = try writeRandomFile(ftp.root.appendingPathComponent("big.bin"), count: 2_000_000, modified: Self.modified)
        let resumeData = directory.appendingPathComponent("big.bin.afresume")
        try interruptAfterACheckpoint([ftp.url("big.bin")], in: directory, resumeData: resumeData)
        let plist = try String(contentsOf: resumeData, encoding: .utf8)
        XCTAssertTrue(plist.contains("<string>Sun, 13 Sep 2020 12:26:40 GMT</string>"), "MDTM is recorded: \(plist)")

        // A wrong checksum keeps the whole part; the right one then finishes it with nothing
        // fetched (FTP's "already completely downloaded", same size and time).
        let wrong = try Afget.run(
            ["--progress", "line", "--checksum", "sha-256=" + String(repeating: "0", count: 64), ftp.url("big.bin")],
            in: directory)
        XCTAssertEqual(wrong.status, 10, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("big.bin: continuing at"), wrong.stderr)
        let continued = try Afget.run(["--progress", "line", "--checksum", "sha-256=" + sha, ftp.url("big.bin")], in: directory)
        XCTAssertEqual(continued.status, 0, continued.stderr)
        XCTAssertFalse(continued.stderr.contains("cannot continue"), continued.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), sha)
        XCTAssertEqual(listing(directory), ["big.bin"])
    }

    /// Same size with a new time, then a new size: each is another file, started over with a
    /// notice naming what changed (`--no-restart`: exit 9, the part kept).
    func testAFileReplacedBetweenRunsStartsOver() throws {
        let ftp = try PyFTPServer()
        let remote = ftp.root.appendingPathComponent("big.bin")
        let resumeData = directory.appendingPathComponent("big.bin.afresume")
        try writeRandomFile(remote, count: 2_000_000, modified: Self.modified)
        try interruptAfterACheckpoint([ftp.url("big.bin")], in: directory, resumeData: resumeData)
        let sameSize = try writeRandomFile(remote, count: 2_000_000, modified: Self.modified.addingTimeInterval(60))
        let retimed = try Afget.run(["--progress", "line", ftp.url("big.bin")], in: directory)
        XCTAssertEqual(retimed.status, 0, retimed.stderr)
        XCTAssertTrue(retimed.stderr.contains("cannot continue (the file changed on the server (Last-Modified"), retimed.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), sameSize)

        try FileManager.default.removeItem(at: directory.appendingPathComponent("big.bin"))
        try interruptAfterACheckpoint([ftp.url("big.bin")], in: directory, resumeData: resumeData)
        let longer = try writeRandomFile(remote, count: 2_100_000, modified: Self.modified.addingTimeInterval(60))
        let refused = try Afget.run(["-q", "--no-restart", ftp.url("big.bin")], in: directory)
        XCTAssertEqual(refused.status, 9, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("its length changed from 2000000 to 2100000 bytes"), refused.stderr)
        XCTAssertEqual(listing(directory), ["big.bin.afpart", "big.bin.afresume"])
        let restarted = try Afget.run(["-q", ftp.url("big.bin")], in: directory)
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), longer)
    }

    /// `-s 4`: the file comes over several FTP sessions at once (pyftpdlib's log shows them
    /// open together), byte for byte; a server that refuses REST gets one connection with a
    /// notice, and the file is still exact.
    func testASplitDownloadUsesSeveralSessionsAndIsExact() throws {
        let ftp = try PyFTPServer()
        let sha = try writeRandomFile(ftp.root.appendingPathComponent("big.bin"), count: 3_000_000, modified: Self.modified)
        let split = try Afget.run(
            ["--progress", "line", "-s", "4", "--min-split-size", "128K", "--limit-rate", "2M", ftp.url("big.bin")],
            in: directory)
        XCTAssertEqual(split.status, 0, split.stderr)
        XCTAssertFalse(split.stderr.contains("one connection"), split.stderr)
        let file = directory.appendingPathComponent("big.bin")
        XCTAssertEqual(sha256Hex(ofFile: file.path), sha)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date, Self.modified)
        XCTAssertGreaterThan(ftp.mostSessionsAtOnce, 1, ftp.server.logText)
        XCTAssertEqual(listing(directory), ["big.bin"])

        let withoutREST = try PyFTPServer(refusesREST: true)
        let restless = try writeRandomFile(
            withoutREST.root.appendingPathComponent("big.bin"), count: 3_000_000, modified: Self.modified)
        let fellBack = try Afget.run(
            ["--progress", "line", "-s", "4", "--min-split-size", "128K", "-d", "restless", withoutREST.url("big.bin")],
            in: directory)
        XCTAssertEqual(fellBack.status, 0, fellBack.stderr)
        XCTAssertTrue(fellBack.stderr.contains("the server cannot send a part of a file (it refused REST)"), fellBack.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("restless/big.bin").path), restless)
    }

    /// A server that takes 2 sessions from a client at once (pyftpdlib's `max_cons_per_ip`,
    /// vsftpd's `max_per_ip` over explicit FTPS) turns a third login away with 421: `-s 4` goes on with
    /// the 2 it takes, said once, as after an HTTP server's 503, not a failure nor a retry,
    /// and the file is exact. Each connection is held to 1 MB/s so that the logins turned away
    /// come while 2 are served.
    func testASplitDownloadFromAServerTakingTwoSessionsGoesOnWithTwo() throws {
        let ftp = try PyFTPServer(sessionsPerClient: 2)
        let sha = try writeRandomFile(ftp.root.appendingPathComponent("big.bin"), count: 3_000_000, modified: Self.modified)
        let plain = try Afget.run(
            [
                "--progress", "line", "-s", "4", "--min-split-size", "128K", "--limit-rate", "1M", "-d", "plain",
                ftp.url("big.bin"),
            ],
            in: directory)
        assertWentOnWithTwo(plain, file: directory.appendingPathComponent("plain/big.bin"), sha: sha)

        // Explicit TLS: vsftpd says its 421 before AUTH TLS, in the clear. (With implicit TLS
        // it says it in the clear where the TLS handshake belongs, which no client can read.)

        let vsftpd = try VsftpdServer(implicit: false, sessionsPerClient: 2)
        let tlsSHA = try writeRandomFile(
            vsftpd.root.appendingPathComponent("big.bin"), count: 3_000_000, modified: Self.modified)
        let overTLS = try Afget.run(
            [
                "--progress", "line", "--ftp-ssl", "--cacert", TestCertificates.shared.caPath, "-s", "4",
                "--min-split-size", "128K",
                "--limit-rate", "1M", "-d", "tls", vsftpd.url("big.bin"),
            ],
            in: directory)
        assertWentOnWithTwo(overTLS, file: directory.appendingPathComponent("tls/big.bin"), sha: tlsSHA)
    }

    /// A list from a server that takes two sessions per client, four at once: the sessions it
    /// turns away wait for places instead of retrying after ever longer backoffs (and, with
    /// more files, running out of attempts), and the limit is said once.
    func testAListFromAServerTakingTwoSessionsGoesOnTwoAtATime() throws {
        let ftp = try PyFTPServer(sessionsPerClient: 2)
        try assertListGoesOnTwoAtATime(root: ftp.root, url: { ftp.url($0) }, options: [], into: "plain")
        // vsftpd counts a session for a moment after it closed: an item given its place at once
        // may be turned away again, and waits again.
        let vsftpd = try VsftpdServer(implicit: false, sessionsPerClient: 2)
        try assertListGoesOnTwoAtATime(
            root: vsftpd.root, url: vsftpd.url, options: ["--ftp-ssl", "--cacert", TestCertificates.shared.caPath],
            into: "tls")
    }

    private func assertListGoesOnTwoAtATime(
        root: URL, url: (String) -> String, options: [String], into output: String, line: UInt = #line
    ) throws {
        var shas: [String: String] = [:]
        for index in 1...6 {
            shas["f\(index).bin"] = try writeRandomFile(
                root.appendingPathComponent("f\(index).bin"), count: 400_000, modified: Self.modified)
        }
        let list = "\(output).txt"
        try shas.keys.sorted().map(url).joined(separator: "\n")
            .write(to: directory.appendingPathComponent(list), atomically: true, encoding: .utf8)
        let result = try Afget.run(
            ["--progress", "line", "-j", "4", "--limit-rate", "1M", "-d", output, "-i", list] + options, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr, line: line)
        for (name, sha) in shas {
            XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("\(output)/\(name)").path), sha, name, line: line)
        }
        XCTAssertEqual(listing(directory.appendingPathComponent(output)), shas.keys.sorted(), line: line)
        // The limit is said once; no refusal is retried after a backoff.
        let origin = String(url("").dropLast())
        let said = result.stderrLines.filter { $0.hasPrefix("afget: ") && !$0.hasPrefix("afget: 6 downloaded") }
        XCTAssertEqual(
            said, ["afget: \(origin) takes 2 connections at once; going on with 2"], result.stderr, line: line)
    }

    private func assertWentOnWithTwo(_ run: AfgetResult, file: URL, sha: String, line: UInt = #line) {
        XCTAssertEqual(run.status, 0, run.stderr, line: line)
        XCTAssertEqual(sha256Hex(ofFile: file.path), sha, line: line)
        XCTAssertEqual(
            run.stderr.components(separatedBy: "the server takes 2 connections at once; going on with 2").count - 1, 1,
            run.stderr, line: line)
        // No failure line nor retry: the notice is the only line afget says beside progress.
        let said = run.stderrLines.filter { $0.hasPrefix("afget: ") }
        XCTAssertEqual(said.count, 1, run.stderr, line: line)
        XCTAssertEqual(listing(file.deletingLastPathComponent()), ["big.bin"], line: line)
    }

    /// A file replaced on the server after the first answer: the segments asked for later
    /// see another size or time, and the download starts over; it never ends with a splice.
    func testAFileReplacedDuringASplitDownloadIsNeverSpliced() throws {
        let ftp = try PyFTPServer()
        let remote = ftp.root.appendingPathComponent("big.bin")
        try writeRandomFile(remote, count: 4_000_000, modified: Self.modified)
        let run = try replaceDuringASplitDownload(
            ftp.url("big.bin"), remote: remote, count: 4_000_000, modified: Self.modified.addingTimeInterval(60),
            in: directory)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the file changed on the server (Last-Modified"), run.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), run.sha)
    }

    /// Explicit TLS required (`--ftp-ssl`) and implicit TLS (`ftps://`), both checked against
    /// the test CA; a server without TLS is refused rather than used in the clear.
    func testFTPSWithTheTestCA() throws {
        let ca = TestCertificates.shared.caPath
        let explicit = try VsftpdServer(implicit: false)
        let sha = try writeRandomFile(explicit.root.appendingPathComponent("f.bin"), count: 100_000, modified: Self.modified)
        let verified = try Afget.run(["-q", "--ftp-ssl", "--cacert", ca, "-d", "explicit", explicit.url("f.bin")], in: directory)
        XCTAssertEqual(verified.status, 0, verified.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("explicit/f.bin").path), sha)
        let untrusted = try Afget.run(["-q", "--ftp-ssl", "-o", "x.bin", explicit.url("f.bin")], in: directory)
        XCTAssertEqual(untrusted.status, 5, untrusted.stderr)

        let plain = try PyFTPServer()
        try writeRandomFile(plain.root.appendingPathComponent("f.bin"), count: 1000, modified: Self.modified)
        let clear = try Afget.run(["-q", "--ftp-ssl", "--cacert", ca, "-o", "x.bin", plain.url("f.bin")], in: directory)
        XCTAssertEqual(clear.status, 5, clear.stderr)

        let implicit = try VsftpdServer(implicit: true)
        let implicitSHA = try writeRandomFile(
            implicit.root.appendingPathComponent("f.bin"), count: 100_000, modified: Self.modified)
        let overTLS = try Afget.run(["-q", "--cacert", ca, "-d", "implicit", implicit.url("f.bin")], in: directory)
        XCTAssertEqual(overTLS.status, 0, overTLS.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("implicit/f.bin").path), implicitSHA)

        // Split over TLS: every segment a TLS session of its own, the file exact.
        let bigSHA = try writeRandomFile(
            implicit.root.appendingPathComponent("big.bin"), count: 3_000_000, modified: Self.modified)
        let split = try Afget.run(
            [
                "--progress", "line", "--cacert", ca, "-s", "4", "--min-split-size", "128K", "-d", "implicit",
                implicit.url("big.bin"),
            ],
            in: directory)
        XCTAssertEqual(split.status, 0, split.stderr)
        XCTAssertFalse(split.stderr.contains("one connection"), split.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("implicit/big.bin").path), bigSHA)
        XCTAssertGreaterThan(implicit.connections, 1, "vsftpd's log")
        XCTAssertFalse(exists(directory.appendingPathComponent("x.bin")))
    }

    func testAnUploadIsReadBackByteForByte() throws {
        let ftp = try PyFTPServer()
        let sha = try writeRandomFile(directory.appendingPathComponent("up.bin"), count: 200_000, modified: Self.modified)
        let missingDirectory = try Afget.run(["upload", "-q", "up.bin", ftp.url("in/new/")], in: directory)
        XCTAssertEqual(missingDirectory.status, 8, missingDirectory.stderr)
        let uploaded = try Afget.run(["upload", "-q", "--create-dirs", "up.bin", ftp.url("in/new/")], in: directory)
        XCTAssertEqual(uploaded.status, 0, uploaded.stderr)
        XCTAssertEqual(sha256Hex(ofFile: ftp.root.appendingPathComponent("in/new/up.bin").path), sha)
    }
}
