import Foundation
import TestServer
import XCTest

/// Downloads and uploads over SFTP and SCP against OpenSSH's sshd: exact files, host keys
/// checked against known_hosts or a pin (exit 5 naming host and fingerprint), a key that is
/// not authorized (exit 6), Ctrl-C then continue, a file touched between runs started over;
/// password logins against an asyncssh server with a user database of its own.
final class SFTPTests: XCTestCase {
    private var directory: URL!
    private static let modified = Date(timeIntervalSince1970: 1_600_000_000)

    override func setUpWithError() throws {
        directory = try makeScratchDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// afget's HOME: the server's, with its key and known_hosts, unless a test gives another.
    private func home(_ ssh: SSHServer) -> [String: String] { ["HOME": ssh.home.path] }

    func testSFTPAndSCPDownloadsAreExact() throws {
        let ssh = try SSHServer()
        let sha = try writeRandomFile(ssh.root.appendingPathComponent("f.bin"), count: 300_000, modified: Self.modified)
        let sftp = try Afget.run(["-q", "-d", "sftp", ssh.url("f.bin")], in: directory, environment: home(ssh))
        XCTAssertEqual(sftp.status, 0, sftp.stderr)
        let file = directory.appendingPathComponent("sftp/f.bin")
        XCTAssertEqual(sha256Hex(ofFile: file.path), sha)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date, Self.modified)
        // A list may mix schemes: SCP, FTP and SFTP items, three at once.
        let ftp = try PyFTPServer()
        let ftpSHA = try writeRandomFile(ftp.root.appendingPathComponent("g.bin"), count: 200_000, modified: Self.modified)
        let list =
            "\(ssh.url("f.bin", scheme: "scp"))\n  out=scp.bin\n\(ftp.url("g.bin"))\n\(ssh.url("f.bin"))\n  out=again.bin\n"
        try list.write(to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        let mixed = try Afget.run(["-q", "-j", "3", "-i", "list.txt", "-d", "mixed"], in: directory, environment: home(ssh))
        XCTAssertEqual(mixed.status, 0, mixed.stderr)
        for (name, want) in [("scp.bin", sha), ("g.bin", ftpSHA), ("again.bin", sha)] {
            XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("mixed/\(name)").path), want, name)
        }

        let missing = try Afget.run(["-q", ssh.url("none.bin")], in: directory, environment: home(ssh))
        XCTAssertEqual(missing.status, 8, missing.stderr)
        XCTAssertTrue(missing.stderr.contains(": the server has no such file"), missing.stderr)

        let stranger = directory.appendingPathComponent("stranger")
        try generateKey(stranger)
        let unauthorized = try Afget.run(
            ["-q", "--ssh-key", stranger.path, "-o", "x.bin", ssh.url("f.bin")], in: directory, environment: home(ssh))
        XCTAssertEqual(unauthorized.status, 6, unauthorized.stderr)

        let upload = try Afget.run(
            ["upload", "-q", "--create-dirs", "sftp/f.bin", ssh.url("in/new/")], in: directory, environment: home(ssh))
        XCTAssertEqual(upload.status, 0, upload.stderr)
        XCTAssertEqual(sha256Hex(ofFile: ssh.root.appendingPathComponent("in/new/f.bin").path), sha)
    }

    /// A host key known_hosts does not have, or has another key for, is refused (exit 5) with
    /// the host and the fingerprint; a pin trusts the key without known_hosts.
    func testUnknownAndChangedHostKeysAreRefused() throws {
        let ssh = try SSHServer()
        try writeRandomFile(ssh.root.appendingPathComponent("f.bin"), count: 1000, modified: Self.modified)
        let knownHosts = ssh.home.appendingPathComponent(".ssh/known_hosts")
        let trusted = try String(contentsOf: knownHosts, encoding: .utf8)

        try Data().write(to: knownHosts)
        let unknown = try Afget.run(["-q", ssh.url("f.bin")], in: directory, environment: home(ssh))
        XCTAssertEqual(unknown.status, 5, unknown.stderr)
        XCTAssertEqual(unknown.stderrLines.count, 1, unknown.stderr)
        XCTAssertTrue(
            unknown.stderr.contains("SSH with \(ssh.hostName): unknown host key \(ssh.hostKeyFingerprint)"), unknown.stderr)

        let other = directory.appendingPathComponent("other")
        try generateKey(other)
        let otherKey = try String(contentsOf: other.appendingPathExtension("pub"), encoding: .utf8)
        try "\(ssh.hostName) \(otherKey.split(separator: " ").prefix(2).joined(separator: " "))\n".write(
            to: knownHosts, atomically: true, encoding: .utf8)
        let changed = try Afget.run(["-q", ssh.url("f.bin")], in: directory, environment: home(ssh))
        XCTAssertEqual(changed.status, 5, changed.stderr)
        XCTAssertTrue(
            changed.stderr.contains("SSH with \(ssh.hostName): the host key changed: the server shows \(ssh.hostKeyFingerprint)"),
            changed.stderr)
        XCTAssertEqual(listing(directory), ["other", "other.pub"], "nothing downloaded from an untrusted host")

        let wrongPin = try Afget.run(
            ["-q", "--ssh-host-key-sha256", String(repeating: "A", count: 43), ssh.url("f.bin")], in: directory,
            environment: home(ssh))
        XCTAssertEqual(wrongPin.status, 5, wrongPin.stderr)
        XCTAssertTrue(wrongPin.stderr.contains("the host key \(ssh.hostKeyFingerprint) is not the pinned one"), wrongPin.stderr)
        let pinned = try Afget.run(
            ["-q", "--ssh-host-key-sha256", ssh.hostKeyFingerprint, ssh.url("f.bin")], in: directory, environment: home(ssh))
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        try trusted.write(to: knownHosts, atomically: true, encoding: .utf8)
    }

    /// Without a key file of its own, afget logs in with the key an ssh-agent holds; with no
    /// agent either, the login is refused (exit 6).
    func testAnSSHAgentsKeyLogsIn() throws {
        let ssh = try SSHServer()
        let sha = try writeRandomFile(ssh.root.appendingPathComponent("f.bin"), count: 50_000, modified: Self.modified)
        // A HOME with known_hosts and no key of its own.
        let bare = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: bare.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: ssh.home.appendingPathComponent(".ssh/known_hosts"), to: bare.appendingPathComponent(".ssh/known_hosts"))
        let withoutAgent = try Afget.run(
            ["-q", "-o", "none.bin", ssh.url("f.bin")], in: directory, environment: ["HOME": bare.path, "SSH_AUTH_SOCK": ""])
        XCTAssertEqual(withoutAgent.status, 6, withoutAgent.stderr)

        let socket = directory.appendingPathComponent("agent.sock").path
        // In the foreground (-D): a daemon would keep the test's pipes open after it forks.
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-agent")
        agent.arguments = ["-D", "-a", socket]
        agent.standardOutput = FileHandle.nullDevice
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        defer {
            agent.terminate()
            agent.waitUntilExit()
        }
        waitUntil("the agent's socket") { FileManager.default.fileExists(atPath: socket) }
        let added = try runProgram(
            "/usr/bin/ssh-add", [ssh.home.appendingPathComponent(".ssh/id_ed25519").path], in: directory,
            environment: ["SSH_AUTH_SOCK": socket], timeout: 10)
        XCTAssertEqual(added.status, 0, added.stderr)
        let withAgent = try Afget.run(
            ["-q", "-o", "f.bin", ssh.url("f.bin")], in: directory, environment: ["HOME": bare.path, "SSH_AUTH_SOCK": socket])
        XCTAssertEqual(withAgent.status, 0, withAgent.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("f.bin").path), sha)
    }

    /// A password login, against a server with its own user database (sshd checks passwords
    /// against system accounts), with no key and no agent: `-u`, credentials in the URL and
    /// `--netrc-file` each log in (the server's log shows each password accepted) and fetch the
    /// file exactly; the password is in none of stderr, stdout, the report or the resume data of
    /// an interrupted run, which the same command then continues. A wrong password is exit 6 in
    /// one line. Until afget left the user to libcurl when netrc names one, `--netrc` over SSH
    /// sent the local user and no password: refused.
    func testAPasswordLogsInAndIsNeverShownOrKept() throws {
        let password = "Zq7rX-hunter2"
        let ssh = try PasswordSFTPServer(password: password)
        let sha = try writeRandomFile(ssh.root.appendingPathComponent("f.bin"), count: 300_000, modified: Self.modified)
        let environment = ["HOME": ssh.home.path, "SSH_AUTH_SOCK": ""]
        let accepted = "password login alice: accepted"

        let given = try Afget.run(
            ["--progress", "json", "--report", "given.json", "-u", "alice:\(password)", "-o", "given.bin", ssh.url("f.bin")],
            in: directory, environment: environment)
        XCTAssertEqual(given.status, 0, given.stderr + ssh.server.logText)
        let file = directory.appendingPathComponent("given.bin")
        XCTAssertEqual(sha256Hex(ofFile: file.path), sha)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date, Self.modified)
        let givenReport = try String(contentsOf: directory.appendingPathComponent("given.json"), encoding: .utf8)
        XCTAssertFalse((givenReport + given.stdoutText + given.stderr).contains(password), givenReport + given.stderr)
        XCTAssertEqual(ssh.logins, [accepted])

        let inURL = try Afget.run(
            [
                "--progress", "json", "--report", "url.json", "-o", "url.bin",
                ssh.url("f.bin", credentials: "alice:\(password)@"),
            ],
            in: directory, environment: environment)
        XCTAssertEqual(inURL.status, 0, inURL.stderr + ssh.server.logText)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("url.bin").path), sha)
        let urlReport = try String(contentsOf: directory.appendingPathComponent("url.json"), encoding: .utf8)
        XCTAssertFalse((urlReport + inURL.stdoutText + inURL.stderr).contains(password), urlReport + inURL.stderr)

        let netrc = directory.appendingPathComponent("netrc")
        try "machine 127.0.0.1\n  login alice\n  password \(password)\n".write(to: netrc, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(netrc.path, 0o600), 0)
        let fromNetrc = try Afget.run(
            ["-q", "--netrc-file", netrc.path, "-o", "netrc.bin", ssh.url("f.bin")], in: directory, environment: environment)
        XCTAssertEqual(fromNetrc.status, 0, fromNetrc.stderr + ssh.server.logText)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("netrc.bin").path), sha)
        XCTAssertEqual(ssh.logins, [accepted, accepted, accepted])

        let wrong = try Afget.run(
            ["-q", "-u", "alice:wrong", "-o", "wrong.bin", ssh.url("f.bin")], in: directory, environment: environment)
        XCTAssertEqual(wrong.status, 6, wrong.stderr)
        XCTAssertEqual(wrong.stderrLines.count, 1, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("the server refused the login"), wrong.stderr)
        XCTAssertTrue(ssh.logins.last?.hasSuffix("refused") ?? false, ssh.server.logText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("wrong.bin").path))

        // Stopped part-way, with the password given by `-u` and in the URL: the resume data does
        // not hold it, and the same command continues exactly.
        let bigSHA = try writeRandomFile(ssh.root.appendingPathComponent("big.bin"), count: 2_000_000, modified: Self.modified)
        // As over HTTP, the URL recorded keeps the user of the URL's credentials, not the password.
        for (name, arguments, recorded) in [
            ("u.bin", ["-u", "alice:\(password)", ssh.url("big.bin")], ssh.url("big.bin")),
            ("in-url.bin", [ssh.url("big.bin", credentials: "alice:\(password)@")], ssh.url("big.bin", credentials: "alice@")),
        ] {
            let command = ["-o", name] + arguments
            let resumeData = directory.appendingPathComponent(name + ".afresume")
            try interruptAfterACheckpoint(command, in: directory, environment: environment, resumeData: resumeData)
            let kept = try String(contentsOf: resumeData, encoding: .utf8)
            XCTAssertFalse(kept.contains(password), "\(name): \(kept)")
            XCTAssertTrue(kept.contains("<string>\(recorded)</string>"), "\(name): \(kept)")
            let continued = try Afget.run(["--progress", "line"] + command, in: directory, environment: environment)
            XCTAssertEqual(continued.status, 0, continued.stderr)
            XCTAssertTrue(continued.stderr.contains("\(name): continuing at"), continued.stderr)
            XCTAssertFalse(continued.stderr.contains(password), continued.stderr)
            XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent(name).path), bigSHA, name)
        }
    }

    func testCtrlCThenContinueAndATouchedFileStartsOver() throws {
        let ssh = try SSHServer()
        let remote = ssh.root.appendingPathComponent("big.bin")
        let sha = try writeRandomFile(remote, count: 2_000_000, modified: Self.modified)
        let resumeData = directory.appendingPathComponent("big.bin.afresume")
        try interruptAfterACheckpoint([ssh.url("big.bin")], in: directory, environment: home(ssh), resumeData: resumeData)
        let continued = try Afget.run(["--progress", "line", ssh.url("big.bin")], in: directory, environment: home(ssh))
        XCTAssertEqual(continued.status, 0, continued.stderr)
        XCTAssertTrue(continued.stderr.contains("big.bin: continuing at"), continued.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), sha)

        try FileManager.default.removeItem(at: directory.appendingPathComponent("big.bin"))
        try interruptAfterACheckpoint([ssh.url("big.bin")], in: directory, environment: home(ssh), resumeData: resumeData)
        let rewritten = try writeRandomFile(remote, count: 2_000_000, modified: Self.modified.addingTimeInterval(1))
        let restarted = try Afget.run(["--progress", "line", ssh.url("big.bin")], in: directory, environment: home(ssh))
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertTrue(restarted.stderr.contains("the file changed on the server (Last-Modified"), restarted.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), rewritten)
    }

    /// `-s 4` over SFTP: several SSH sessions (sshd's log shows each login), the file byte for
    /// byte with its time; SCP, which cannot seek, goes on one connection and says so.
    func testASplitDownloadUsesSeveralSessionsAndIsExact() throws {
        let ssh = try SSHServer()
        let sha = try writeRandomFile(ssh.root.appendingPathComponent("big.bin"), count: 3_000_000, modified: Self.modified)
        let split = try Afget.run(
            ["--progress", "line", "-s", "4", "--min-split-size", "128K", ssh.url("big.bin")],
            in: directory, environment: home(ssh))
        XCTAssertEqual(split.status, 0, split.stderr)
        XCTAssertFalse(split.stderr.contains("one connection"), split.stderr)
        let file = directory.appendingPathComponent("big.bin")
        XCTAssertEqual(sha256Hex(ofFile: file.path), sha)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date, Self.modified)
        XCTAssertGreaterThan(ssh.mostSessionsAtOnce, 1, ssh.server.logText)
        XCTAssertEqual(listing(directory), ["big.bin"])

        let scp = try Afget.run(
            ["--progress", "line", "-s", "4", "--min-split-size", "128K", "-o", "scp.bin", ssh.url("big.bin", scheme: "scp")],
            in: directory, environment: home(ssh))
        XCTAssertEqual(scp.status, 0, scp.stderr)
        XCTAssertTrue(scp.stderr.contains("one connection: SCP cannot fetch part of a file (sftp:// can)"), scp.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("scp.bin").path), sha)
    }

    /// An sshd that lets one connection at a time wait for its login (MaxStartups 1) closes the
    /// others before its banner: those segments are retried like any connection that failed,
    /// and the file ends exact — never "internal error" (libcurl calls it a failed start).
    func testASplitDownloadFromAnSSHServerTakingOneLoginAtATimeEndsExact() throws {
        let ssh = try SSHServer(maxStartups: 1)
        let sha = try writeRandomFile(ssh.root.appendingPathComponent("busy.bin"), count: 3_000_000, modified: Self.modified)
        let result = try Afget.run(
            ["-s", "4", "--min-split-size", "128K", "--retry", "20", "--retry-delay", "0.1", ssh.url("busy.bin")], in: directory,
            environment: home(ssh))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("busy.bin").path), sha)
        XCTAssertFalse(result.stderr.contains("internal error"), result.stderr)
        XCTAssertEqual(listing(directory), ["busy.bin"])
    }

    /// `-s 4 --limit-rate` over SFTP, several times: the pacer pauses each segment again and
    /// again, and a segment often reaches its end in the bytes libcurl hands back from within
    /// `curl_easy_pause`, when the loop lets the transfer go on. The transfer ended there must
    /// end then: libssh2 has read what follows ahead, so nothing on the socket wakes it again,
    /// and until afget took the end from that call such a segment sat until the stall timeout
    /// (here 60 s) retried it.
    func testASplitDownloadAtALimitedRateEndsWithoutWaitingForTheStallTimeout() throws {
        let ssh = try SSHServer()
        let sha = try writeRandomFile(ssh.root.appendingPathComponent("big.bin"), count: 3_000_000, modified: Self.modified)
        for run in 1...5 {
            let name = "big-\(run).bin"
            let (process, _, stderr) = try Afget.start(
                [
                    "--progress", "line", "-s", "4", "--min-split-size", "128K", "--limit-rate", "400K",
                    "--stall-timeout", "60", "-o", name, ssh.url("big.bin"),
                ],
                in: directory, environment: home(ssh))
            // 3 MB at 4 × 400 KB/s: two seconds or so; a segment left waiting takes 60 s.
            waitUntil(timeout: 20, "run \(run) of the split download to end") { !process.isRunning }
            if process.isRunning { kill(process.processIdentifier, SIGINT) }
            process.waitUntilExit()
            let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            XCTAssertEqual(process.terminationStatus, 0, "run \(run): \(said)")
            XCTAssertFalse(said.contains("stalled"), "run \(run): \(said)")
            XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent(name).path), sha, "run \(run)")
        }
    }

    /// A file replaced on the server after the first answer: a later segment's stat shows
    /// another time, and the download starts over; it never ends with a splice.
    func testAFileReplacedDuringASplitDownloadIsNeverSpliced() throws {
        let ssh = try SSHServer()
        let remote = ssh.root.appendingPathComponent("big.bin")
        try writeRandomFile(remote, count: 4_000_000, modified: Self.modified)
        let run = try replaceDuringASplitDownload(
            ssh.url("big.bin"), remote: remote, count: 4_000_000, modified: Self.modified.addingTimeInterval(60),
            in: directory, environment: home(ssh))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the file changed on the server (Last-Modified"), run.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), run.sha)
    }
}
