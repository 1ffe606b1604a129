import Foundation
import Glibc
import TestServer
import XCTest

/// A server program of Debian's, started on a free loopback port with a configuration of the
/// test's own in a scratch directory, and stopped (and its directory removed) with this value.
/// Scripts/test.sh installs the programs (python3-pyftpdlib, vsftpd, openssh-server,
/// python3-asyncssh).
final class ServerProgram {
    let scratch: URL
    let port: Int
    private let process: Process
    private let log: URL

    /// Starts `program` with the arguments `arguments(port, scratch)` makes and waits until it
    /// accepts connections.
    init(_ program: String, _ arguments: (Int, URL) throws -> [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw ServerProgramError(message: "\(program) is not installed; Scripts/test.sh installs it")
        }
        scratch = try makeScratchDirectory()
        port = try freePort()
        log = scratch.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = try arguments(port, scratch)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !canConnect(port: port) {
            guard process.isRunning, Date() < deadline else {
                throw ServerProgramError(message: "\(program) did not listen on \(port): \(logText)")
            }
            usleep(20_000)
        }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: scratch)
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// A directory in the scratch directory, made now.
    func directory(_ name: String) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

struct ServerProgramError: Error {
    let message: String
}

/// pyftpdlib (Debian's python3-pyftpdlib) serving `root`: anonymous and alice:secret, both
/// allowed to write. (Its TLS data connections fail with libcurl 7.88, curl(1) as well:
/// FTPS is tested against vsftpd.) `refusesREST`: a server that cannot start a file part-way
/// (REST answered 502). `sessionsPerClient`: more logins from one address at once are turned
/// away with 421 (`max_cons_per_ip`; 0, no limit). Its log has a line for each session opened
/// and closed.
final class PyFTPServer {
    let server: ServerProgram
    let root: URL

    init(refusesREST: Bool = false, sessionsPerClient: Int = 0) throws {
        let script = """
            import sys
            from pyftpdlib.authorizers import DummyAuthorizer
            from pyftpdlib.handlers import FTPHandler
            from pyftpdlib.servers import FTPServer
            root, port = sys.argv[1], int(sys.argv[2])
            authorizer = DummyAuthorizer()
            authorizer.add_user("alice", "secret", root, perm="elradfmwMT")
            authorizer.add_anonymous(root, perm="elradfmwMT")
            FTPHandler.authorizer = authorizer
            FTPHandler.auth_failed_timeout = 0  # a refused login answered at once
            if sys.argv[3] == "no-rest":
                FTPHandler.ftp_REST = lambda self, line: self.respond("502 REST not implemented.")
            server = FTPServer(("127.0.0.1", port), FTPHandler)
            server.max_cons_per_ip = int(sys.argv[4])
            server.serve_forever()
            """
        var root: URL?
        server = try ServerProgram("/usr/bin/python3") { port, scratch in
            let directory = scratch.appendingPathComponent("root")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            root = directory
            return ["-c", script, directory.path, String(port), refusesREST ? "no-rest" : "rest", String(sessionsPerClient)]
        }
        self.root = root!
    }

    /// The most FTP sessions the server had open at once so far.
    var mostSessionsAtOnce: Int {
        mostAtOnce(server.logText, opens: "FTP session opened", closes: "FTP session closed")
    }

    func url(_ path: String, user: String = "") -> String { "ftp://\(user)127.0.0.1:\(server.port)/\(path)" }
}

/// vsftpd with TLS, implicit (`ftps://`) or explicit (`ftp://` and AUTH TLS, `--ftp-ssl`):
/// anonymous, read-only, serving `root`. `sessionsPerClient`: more connections from one
/// address at once are turned away with 421 (`max_per_ip`; 0, no limit).
final class VsftpdServer {
    let server: ServerProgram
    let root: URL
    let implicit: Bool

    init(implicit: Bool, sessionsPerClient: Int = 0) throws {
        self.implicit = implicit
        let certificates = TestCertificates.shared
        var root: URL?
        server = try ServerProgram("/usr/sbin/vsftpd") { port, scratch in
            let directory = scratch.appendingPathComponent("root")
            let empty = scratch.appendingPathComponent("empty")
            for made in [directory, empty] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            }
            root = directory
            let configuration = scratch.appendingPathComponent("vsftpd.conf")
            try """
            listen=YES
            listen_address=127.0.0.1
            listen_port=\(port)
            run_as_launching_user=YES
            background=NO
            anonymous_enable=YES
            anon_root=\(directory.path)
            local_enable=NO
            write_enable=NO
            seccomp_sandbox=NO
            max_per_ip=\(sessionsPerClient)
            ssl_enable=YES
            implicit_ssl=\(implicit ? "YES" : "NO")
            allow_anon_ssl=YES
            force_anon_logins_ssl=YES
            force_anon_data_ssl=YES
            require_ssl_reuse=NO
            rsa_cert_file=\(certificates.good.certificatePath)
            rsa_private_key_file=\(certificates.good.privateKeyPath)
            xferlog_enable=YES
            vsftpd_log_file=\(scratch.path)/vsftpd.log
            secure_chroot_dir=\(empty.path)
            """.write(to: configuration, atomically: true, encoding: .utf8)
            return [configuration.path]
        }
        self.root = root!
    }

    func url(_ path: String) -> String { "\(implicit ? "ftps" : "ftp")://127.0.0.1:\(server.port)/\(path)" }

    /// Connections vsftpd has taken so far (its log's CONNECT lines).
    var connections: Int {
        let log = (try? String(contentsOf: server.scratch.appendingPathComponent("vsftpd.log"), encoding: .utf8)) ?? ""
        return log.split(whereSeparator: \.isNewline).filter { $0.contains("CONNECT: Client") }.count
    }
}

/// OpenSSH's sshd (not a daemon) with a host key of its own, the SFTP subsystem in process,
/// and one client key authorized for the user running the tests. `home` is a HOME for afget
/// holding that key as `~/.ssh/id_ed25519` and the host key in `~/.ssh/known_hosts`.
final class SSHServer {
    let server: ServerProgram
    let root: URL
    let home: URL
    /// The host key's fingerprint as `ssh-keygen -l` prints it (`SHA256:...`).
    let hostKeyFingerprint: String
    /// `[127.0.0.1]:PORT`, as known_hosts names the server.
    let hostName: String

    /// `maxStartups`: sshd's MaxStartups, the connections it lets wait for their login at once
    /// (beyond them it closes a new one before its banner).
    init(maxStartups: Int? = nil) throws {
        // Run as root, sshd wants its privilege separation directory.
        if getuid() == 0 { try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
        var made: (root: URL, home: URL, fingerprint: String)?
        // sshd closes every descriptor it inherits, which Foundation's Process takes for its
        // end (and then waits for it, blocking the exit of every other child): a shell that
        // stays is its parent, and passes SIGTERM on.
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else {
            throw ServerProgramError(message: "/usr/sbin/sshd is not installed; Scripts/test.sh installs openssh-server")
        }
        server = try ServerProgram("/bin/sh") { port, scratch in
            let keys = scratch.appendingPathComponent("keys")
            let home = scratch.appendingPathComponent("home")
            let root = scratch.appendingPathComponent("root")
            for directory in [keys, home.appendingPathComponent(".ssh"), root] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try generateKey(keys.appendingPathComponent("host"))
            try generateKey(keys.appendingPathComponent("client"))
            try FileManager.default.copyItem(
                at: keys.appendingPathComponent("client"), to: home.appendingPathComponent(".ssh/id_ed25519"))
            let hostKey = try String(contentsOf: keys.appendingPathComponent("host.pub"), encoding: .utf8)
            let keyFields = hostKey.split(separator: " ").prefix(2).joined(separator: " ")
            try "[127.0.0.1]:\(port) \(keyFields)\n".write(
                to: home.appendingPathComponent(".ssh/known_hosts"), atomically: true, encoding: .utf8)
            let fingerprint = try runProgram("/usr/bin/ssh-keygen", ["-l", "-f", keys.path + "/host.pub"], in: scratch)
            made = (root, home, String(fingerprint.stdout.split(separator: " ")[1]))
            let configuration = scratch.appendingPathComponent("sshd_config")
            try """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(keys.path)/host
            PidFile \(scratch.path)/sshd.pid
            AuthorizedKeysFile \(keys.path)/client.pub
            StrictModes no
            UsePAM no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            Subsystem sftp internal-sftp
            \(maxStartups.map { "MaxStartups \($0)" } ?? "")
            """.write(to: configuration, atomically: true, encoding: .utf8)
            return [
                "-c", "/usr/sbin/sshd -D -e -f \"$0\" & child=$!; trap 'kill $child; wait $child' TERM; wait $child",
                configuration.path,
            ]
        }
        root = made!.root
        home = made!.home
        hostKeyFingerprint = made!.fingerprint
        hostName = "[127.0.0.1]:\(server.port)"
    }

    /// The most SSH sessions sshd had open at once so far (its log's logins and disconnects).
    var mostSessionsAtOnce: Int {
        mostAtOnce(server.logText, opens: "Accepted publickey", closes: "Disconnected from")
    }

    /// `sftp://` or `scp://` to `root`'s file `name`.
    func url(_ name: String, scheme: String = "sftp") -> String {
        "\(scheme)://127.0.0.1:\(server.port)\(root.path)/\(name)"
    }
}

/// An SFTP server with a user database of its own (Scripts/sftp-password-server.py, on
/// asyncssh: Debian's python3-asyncssh), since sshd checks passwords against system accounts:
/// `user` logs in with `password`, and nothing else logs in (no keys, no agent). It serves
/// `root` as `/`. `home` is a HOME for afget with the host key in `~/.ssh/known_hosts` and no
/// key of its own. Its log has a line for each password tried, naming the user.
final class PasswordSFTPServer {
    let server: ServerProgram
    let root: URL
    let home: URL
    let user = "alice"

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/sftp-password-server.py")

    init(password: String) throws {
        let user = user
        var made: (root: URL, home: URL)?
        server = try ServerProgram("/usr/bin/python3") { port, scratch in
            let root = scratch.appendingPathComponent("root")
            let home = scratch.appendingPathComponent("home")
            for directory in [root, home.appendingPathComponent(".ssh")] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            let hostKey = scratch.appendingPathComponent("host")
            try generateKey(hostKey)
            let publicKey = try String(contentsOf: hostKey.appendingPathExtension("pub"), encoding: .utf8)
            try "[127.0.0.1]:\(port) \(publicKey.split(separator: " ").prefix(2).joined(separator: " "))\n".write(
                to: home.appendingPathComponent(".ssh/known_hosts"), atomically: true, encoding: .utf8)
            made = (root, home)
            return [Self.script.path, root.path, String(port), hostKey.path, user, password]
        }
        root = made!.root
        home = made!.home
    }

    /// The server's log lines for passwords tried: `password login USER: accepted` (or `refused`).
    var logins: [String] {
        server.logText.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("password login") }
    }

    /// `sftp://` to `root`'s file `name`; `credentials` (`user:password@`) put in the URL.
    func url(_ name: String, credentials: String = "") -> String { "sftp://\(credentials)127.0.0.1:\(server.port)/\(name)" }
}

/// A new ed25519 key pair without a passphrase: `path` and `path.pub`.
func generateKey(_ path: URL) throws {
    let run = try runProgram(
        "/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path.path], in: path.deletingLastPathComponent())
    guard run.status == 0 else { throw ServerProgramError(message: "ssh-keygen: \(run.stderr)") }
}

/// Writes `count` random bytes to `url`, dated `modified`; returns their SHA-256.
@discardableResult
func writeRandomFile(_ url: URL, count: Int, modified: Date) throws -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<count / 8 + 1).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
    let data = Data(bytes.prefix(count))
    try data.write(to: url)
    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
    return sha256Hex(data)
}

/// Runs afget at `--limit-rate` until its resume data counts more than 100 000 bytes, then
/// stops it with a real SIGINT and checks the orderly stop (130, resume data kept).
func interruptAfterACheckpoint(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:], resumeData: URL,
    file: StaticString = #filePath, line: UInt = #line
) throws {
    let (process, _, stderr) = try Afget.start(
        ["--progress", "line", "--limit-rate", "400K"] + arguments, in: directory, environment: environment)
    waitUntil("a checkpoint beyond 100 000 bytes", file: file, line: line) { (checkpointedBytes(resumeData) ?? 0) > 100_000 }
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
    XCTAssertEqual(process.terminationStatus, 130, said, file: file, line: line)
    XCTAssertTrue(said.contains("resume data saved"), said, file: file, line: line)
}

/// The most sessions a server's log shows open at the same time: a line containing `opens`
/// starts one, one containing `closes` ends one.
func mostAtOnce(_ log: String, opens: String, closes: String) -> Int {
    var open = 0
    var most = 0
    // sshd -e ends its lines with CRLF, one Character in Swift.
    for line in log.split(whereSeparator: \.isNewline) {
        if line.contains(opens) { open += 1 }
        if line.contains(closes) { open -= 1 }
        most = max(most, open)
    }
    return most
}

/// Puts a new version of `url` (random bytes, dated `modified`) in its place at once, as a
/// mirror's rsync does (rename over it): transfers already reading the old one go on reading
/// it, those opened later read the new one. Returns the new bytes' SHA-256.
func replaceFile(_ url: URL, count: Int, modified: Date) throws -> String {
    let staged = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).new")
    let sha = try writeRandomFile(staged, count: count, modified: modified)
    guard rename(staged.path, url.path) == 0 else { throw ServerProgramError(message: "rename: errno \(errno)") }
    return sha
}

/// Runs a split download (`-s 4`, `--limit-rate` per connection so that it takes a few
/// seconds) and, once its segments are running (its resume data records them), replaces the
/// file on the server (same size, a new time). A request after that gets the new version's
/// size and time, which are not the first answer's: the download starts over and ends with
/// the new file whole, never a splice of the two. Returns afget's exit status, its stderr and
/// the new file's SHA-256.
func replaceDuringASplitDownload(
    _ url: String, remote: URL, count: Int, modified: Date, in directory: URL, environment: [String: String] = [:],
    file: StaticString = #filePath, line: UInt = #line
) throws -> (status: Int32, stderr: String, sha: String) {
    let resumeData = directory.appendingPathComponent(remote.lastPathComponent + ".afresume")
    let (process, _, stderr) = try Afget.start(
        ["--progress", "line", "-s", "4", "--min-split-size", "128K", "--limit-rate", "300K", url],
        in: directory,
        environment: environment)
    waitUntil("the segments' first checkpoint", file: file, line: line) {
        ((try? String(contentsOf: resumeData, encoding: .utf8)) ?? "").contains("AFGetSegments")
    }
    let sha = try replaceFile(remote, count: count, modified: modified)
    process.waitUntilExit()
    let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
    return (process.terminationStatus, said, sha)
}
