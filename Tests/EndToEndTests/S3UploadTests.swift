import Foundation
import Glibc
import TestServer
import XCTest

/// `afget upload` to moto's S3 server over real sockets: one signed PUT read back exact with
/// the checksum the store kept, a multipart upload four parts at a time, Ctrl-C then the same
/// command continuing with the parts the store holds, `--restart` aborting, a changed file
/// starting over, a directory with `-r`, and refused credentials (exit 6, the store's words,
/// no secret anywhere).
final class S3UploadTests: XCTestCase {
    private var directory: URL!
    /// Where the upload records go (XDG_STATE_HOME).
    private var state: URL!

    override func setUpWithError() throws {
        directory = try makeScratchDirectory()
        state = try makeScratchDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: state)
    }

    private var records: URL { state.appendingPathComponent("afget/uploads") }

    /// `count` random bytes in `name`; their SHA-256.
    @discardableResult
    private func write(_ name: String, count: Int) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // From the kernel: a debug build's UInt8.random takes seconds for megabytes.
        let random = try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        let data = try XCTUnwrap(try random.read(upToCount: count))
        XCTAssertEqual(data.count, count)
        try data.write(to: url)
        return sha256Hex(data)
    }

    private func environment(_ moto: MotoServer) -> [String: String] {
        moto.signingEnvironment.merging(["XDG_STATE_HOME": state.path]) { $1 }
    }

    private func afget(_ arguments: [String], _ moto: MotoServer, environment extra: [String: String] = [:]) throws
        -> AfgetResult
    {
        try Afget.run(
            ["upload", "--s3-endpoint", moto.endpoint] + arguments, in: directory,
            environment: environment(moto).merging(extra) { $1 })
    }

    /// The parts moto took (a 200 to `PUT …?partNumber=`) in its log so far.
    private func partsTaken(_ moto: MotoServer) -> Int {
        moto.server.logText.split(separator: "\n").filter {
            $0.contains("PUT /") && $0.contains("partNumber=") && $0.contains("\" 200 ")
        }
        .count
    }

    /// How many parts the one upload record holds, nil when there is none.
    private func recordedParts() -> Int? {
        guard
            let name = try? FileManager.default.contentsOfDirectory(atPath: records.path).first(where: {
                $0.hasSuffix(".afupload")
            }),
            let text = try? String(contentsOf: records.appendingPathComponent(name), encoding: .utf8)
        else { return nil }
        return text.components(separatedBy: "<key>number</key>").count - 1
    }

    private func base64SHA256(ofFile path: String) throws -> String {
        let hex = try XCTUnwrap(sha256Hex(ofFile: path))
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes).base64EncodedString()
    }

    func testOneSignedPUTIsExactAndCarriesItsChecksumAndRefusedCredentialsSaySo() throws {
        let moto = try MotoServer(checksSignatures: true)
        try moto.createBucket("up-one")
        let small = try write("small.bin", count: 300_000)
        let larger = try write("larger.bin", count: 3_000_000)

        let result = try afget(["--progress", "line", "small.bin", "larger.bin", "s3://up-one/dir/"], moto)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, "", "nothing but data on stdout, and S3 answers a PUT with none")
        for (name, sha) in [("small.bin", small), ("larger.bin", larger)] {
            let stored = try moto.object("up-one", "dir/\(name)")
            XCTAssertEqual(stored.sha256, sha, name)
            XCTAssertEqual(
                stored.checksum, try base64SHA256(ofFile: directory.appendingPathComponent(name).path),
                "x-amz-checksum-sha256 sent and kept: \(name)")
            XCTAssertFalse(stored.entityTag.contains("-"), "one PUT: the ETag is the MD5")
        }
        XCTAssertEqual(recordedParts(), nil, "a single PUT keeps no record")

        let wrongSecret = "wrong/secret+key"
        let refused = try afget(
            ["-v", "small.bin", "s3://up-one/other.bin"], moto, environment: ["AWS_SECRET_ACCESS_KEY": wrongSecret])
        XCTAssertEqual(refused.status, 6, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("SignatureDoesNotMatch"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("the secret key does not match"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains(wrongSecret) || refused.stderr.contains(moto.secretKey), "no secret is shown")

        let refusedParts = try afget(
            ["--multipart-threshold", "1M", "--part-size", "5M", "larger.bin", "s3://up-one/other.bin"], moto,
            environment: ["AWS_SECRET_ACCESS_KEY": wrongSecret])
        XCTAssertEqual(refusedParts.status, 6, refusedParts.stderr)
        XCTAssertTrue(refusedParts.stderr.contains("SignatureDoesNotMatch"), refusedParts.stderr)
    }

    func testAMultipartUploadFourPartsAtOnceIsExact() throws {
        let moto = try MotoServer(checksSignatures: true)
        try moto.createBucket("up-parts")
        let sha = try write("big.bin", count: 23_000_000)
        let result = try afget(
            [
                "-v", "--progress", "line", "--multipart-threshold", "10M", "--part-size", "5M", "-s", "4", "big.bin",
                "s3://up-parts/big.bin",
            ], moto)
        XCTAssertEqual(result.status, 0, result.stderr)
        let stored = try moto.object("up-parts", "big.bin")
        XCTAssertEqual(stored.sha256, sha)
        XCTAssertTrue(stored.entityTag.hasSuffix("-5\""), "five parts: \(stored.entityTag)")
        XCTAssertEqual(partsTaken(moto), 5)
        XCTAssertTrue(result.stderr.contains("5 parts of 5.0 MiB, 5 to send, 4 at a time"), result.stderr)
        XCTAssertTrue(result.stderr.contains("is no MD5"), result.stderr)
        XCTAssertFalse(result.stderr.contains(moto.secretKey))
        XCTAssertEqual(recordedParts(), nil, "the record goes once the object is whole")
        XCTAssertEqual(try moto.unfinishedUploads("up-parts").filter { !$0.isEmpty }, [])
    }

    /// Starts a slow multipart upload of big.bin, one part at a time, and stops it with
    /// SIGINT once its record holds a part.
    private func interruptOnceAPartIsRecorded(_ arguments: [String], _ moto: MotoServer) throws {
        let (process, _, stderr) = try Afget.start(
            ["upload", "--s3-endpoint", moto.endpoint, "--progress", "line", "-s", "1", "--limit-rate", "4M"] + arguments,
            in: directory, environment: environment(moto))
        waitUntil("the record holds a part") { (recordedParts() ?? 0) >= 1 }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        XCTAssertEqual(process.terminationStatus, 130, said)
        XCTAssertTrue(said.contains("resume data saved"), said)
    }

    func testCtrlCThenTheSameCommandSendsOnlyTheMissingParts() throws {
        let moto = try MotoServer()
        try moto.createBucket("up-cont")
        let sha = try write("big.bin", count: 25 * 1_048_576)
        let command = ["--multipart-threshold", "10M", "--part-size", "5M", "big.bin", "s3://up-cont/big.bin"]

        try interruptOnceAPartIsRecorded(command, moto)
        let kept = try XCTUnwrap(recordedParts())
        let takenBefore = partsTaken(moto)
        XCTAssertLessThan(takenBefore, 5)
        let record = try String(
            contentsOf: records.appendingPathComponent(
                FileManager.default.contentsOfDirectory(atPath: records.path).first { $0.hasSuffix(".afupload") }!),
            encoding: .utf8)
        XCTAssertFalse(record.contains(moto.secretKey), "no secret in the record")

        let continued = try afget(["--progress", "line", "-s", "4"] + command, moto)
        XCTAssertEqual(continued.status, 0, continued.stderr)
        XCTAssertTrue(
            continued.stderr.contains("continuing the upload: \(kept) of 5 parts already in the store"), continued.stderr)
        let sentAgain = partsTaken(moto) - takenBefore
        XCTAssertEqual(sentAgain, 5 - kept, "only the parts the store did not hold: \(continued.stderr)")
        XCTAssertLessThan(sentAgain, 5)
        XCTAssertEqual(try moto.object("up-cont", "big.bin").sha256, sha)
        XCTAssertEqual(recordedParts(), nil)
        XCTAssertEqual(try moto.unfinishedUploads("up-cont").filter { !$0.isEmpty }, [])
    }

    func testRestartAbortsAndAChangedFileStartsOver() throws {
        let moto = try MotoServer()
        try moto.createBucket("up-again")
        try write("big.bin", count: 25 * 1_048_576)
        let command = ["--multipart-threshold", "10M", "--part-size", "5M", "big.bin", "s3://up-again/big.bin"]

        try interruptOnceAPartIsRecorded(command, moto)
        let abandoned = try XCTUnwrap(try moto.unfinishedUploads("up-again").first { !$0.isEmpty })
        let restarted = try afget(["--progress", "line", "--restart"] + command, moto)
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertTrue(restarted.stderr.contains("--restart: aborting the earlier upload"), restarted.stderr)
        XCTAssertTrue(
            moto.server.logText.contains("DELETE /up-again/big.bin?uploadId=\(abandoned)"), "AbortMultipartUpload sent")
        XCTAssertEqual(try moto.unfinishedUploads("up-again").filter { !$0.isEmpty }, [], "the old upload is gone")

        // Stopped again, then the file changes: its recorded parts are of other bytes.
        try interruptOnceAPartIsRecorded(command, moto)
        let changed = try write("big.bin", count: 25 * 1_048_576)
        let takenBefore = partsTaken(moto)
        let again = try afget(["--progress", "line"] + command, moto)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("changed since its upload began"), again.stderr)
        XCTAssertEqual(partsTaken(moto) - takenBefore, 5, "every part sent again")
        XCTAssertEqual(try moto.object("up-again", "big.bin").sha256, changed)
        XCTAssertEqual(try moto.unfinishedUploads("up-again").filter { !$0.isEmpty }, [])
    }

    /// A store in front of `moto` that answers 503 to the first request whose path holds
    /// `refusing`, and passes every other request on as it came (one at a time per connection,
    /// so a reused connection's requests are seen too).
    private func faultyFront(of moto: MotoServer, refusing: String) throws -> ServerProgram {
        try ServerProgram("/usr/bin/env") { port, _ in
            [
                "python3", "-c",
                """
                import http.client, http.server, sys, threading
                port, origin, refusing = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
                refused, lock = [], threading.Lock()
                class Front(http.server.BaseHTTPRequestHandler):
                    protocol_version = "HTTP/1.1"
                    def relay(self):
                        length = int(self.headers.get("Content-Length") or 0)
                        body = self.rfile.read(length) if length else b""
                        with lock:
                            refuse = refusing in self.path and not refused
                            if refuse:
                                refused.append(self.path)
                        if refuse:
                            sys.stderr.write("refused " + self.path + "\\n")
                            sys.stderr.flush()
                            self.send_response(503)
                            self.send_header("Content-Length", "0")
                            self.end_headers()
                            return
                        connection = http.client.HTTPConnection("127.0.0.1", origin)
                        headers = {k: v for k, v in self.headers.items() if k.lower() != "expect"}
                        connection.request(self.command, self.path, body=body, headers=headers)
                        answer = connection.getresponse()
                        data = answer.read()
                        self.send_response(answer.status)
                        for name, value in answer.getheaders():
                            if name.lower() not in ("content-length", "transfer-encoding", "connection", "server", "date"):
                                self.send_header(name, value)
                        self.send_header("Content-Length", str(len(data)))
                        self.end_headers()
                        self.wfile.write(data)
                    do_GET = do_PUT = do_POST = do_DELETE = relay
                    def log_message(self, *arguments):
                        pass
                http.server.ThreadingHTTPServer(("127.0.0.1", port), Front).serve_forever()
                """, String(port), String(moto.server.port), refusing,
            ]
        }
    }

    func testAFailedPartIsSentAgainAlone() throws {
        let moto = try MotoServer()
        try moto.createBucket("up-retry")
        let sha = try write("big.bin", count: 23_000_000)
        let front = try faultyFront(of: moto, refusing: "partNumber=2&")
        let result = try Afget.run(
            [
                "upload", "--s3-endpoint", "http://127.0.0.1:\(front.port)", "--progress", "line", "--retry-delay", "0.2",
                "--multipart-threshold", "10M", "--part-size", "5M", "-s", "4", "big.bin", "s3://up-retry/big.bin",
            ],
            in: directory, environment: environment(moto))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(front.logText.contains("refused /up-retry/big.bin?partNumber=2&"), front.logText)
        XCTAssertTrue(result.stderr.contains("part 2"), "the retry names its part: \(result.stderr)")
        XCTAssertEqual(partsTaken(moto), 5, "part 2 once more, the others once")
        XCTAssertEqual(try moto.object("up-retry", "big.bin").sha256, sha)
    }

    func testAnUnusableRecordIsAConflictThatRestartDiscards() throws {
        let moto = try MotoServer()
        try moto.createBucket("up-bad")
        let sha = try write("big.bin", count: 12 * 1_048_576)
        let command = ["--multipart-threshold", "10M", "--part-size", "5M", "big.bin", "s3://up-bad/big.bin"]
        try interruptOnceAPartIsRecorded(command, moto)
        let name = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: records.path).first { $0.hasSuffix(".afupload") })
        try Data("<plist>not one</plist>".utf8).write(to: records.appendingPathComponent(name))

        let refused = try afget(command, moto)
        XCTAssertEqual(refused.status, 9, refused.stderr)
        XCTAssertTrue(refused.stderr.contains(name) && refused.stderr.contains("--restart"), refused.stderr)
        let restarted = try afget(["--restart"] + command, moto)
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertEqual(try moto.object("up-bad", "big.bin").sha256, sha)
        XCTAssertEqual(recordedParts(), nil)
    }

    func testADirectoryGoesToAPrefixWithRecursive() throws {
        let moto = try MotoServer()
        try moto.createBucket("up-tree")
        var expected: [String: String] = [:]
        for path in ["a.txt", "sub/b.bin", "sub/deeper/c d.txt", "skip/x.log"] {
            expected["tree/" + path] = try write("dir/" + path, count: 1_000 + path.count)
        }
        let result = try afget(["-q", "-r", "--exclude", "*.log", "dir", "s3://up-tree/tree/"], moto)
        XCTAssertEqual(result.status, 0, result.stderr)
        expected["tree/skip/x.log"] = nil
        XCTAssertEqual(try moto.objects("up-tree", prefix: "tree/"), expected)
    }
}
