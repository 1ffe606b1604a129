import Foundation
import Glibc
import TestServer
import XCTest

/// `s3://` URLs and prefixes against moto's S3 server over real sockets: anonymous and signed
/// reads, a prefix of 2 000 keys laid out exactly, Ctrl-C then continue, an object replaced
/// between two runs (started over, never spliced), `-s 4`, and refused credentials (exit 6,
/// the store's words, no secret anywhere).
final class S3Tests: XCTestCase {
    private var directory: URL!
    private var files: URL!

    override func setUpWithError() throws {
        directory = try makeScratchDirectory()
        files = try makeScratchDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: files)
    }

    /// `count` random bytes at `key` below `files`; their SHA-256.
    @discardableResult
    private func write(_ key: String, count: Int) throws -> String {
        let url = files.appendingPathComponent(key)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = Data((0..<count).map { _ in UInt8.random(in: 0...255) })
        try data.write(to: url)
        return sha256Hex(data)
    }

    private func afget(_ arguments: [String], _ moto: MotoServer, signed: Bool = true) throws -> AfgetResult {
        try Afget.run(
            ["--s3-endpoint", moto.endpoint] + arguments, in: directory,
            environment: signed ? moto.signingEnvironment : MotoServer.isolated)
    }

    func testAPublicObjectIsReadAnonymouslyAndKeysAreEscaped() throws {
        let moto = try MotoServer()
        let sha = try write("odd keys/ü+x y.txt", count: 5_000)
        try moto.upload(files, bucket: "public", publicRead: true)

        let result = try afget(["-q", "s3://public/odd%20keys/ü+x%20y.txt"], moto, signed: false)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("ü+x y.txt").path), sha)

        let missing = try afget(["s3://public/none.txt"], moto, signed: false)
        XCTAssertEqual(missing.status, 8, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("HTTP 404"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("NoSuchKey"), missing.stderr)
    }

    /// `s3://` URLs in a list, with `out=`, and as the other sources of a line: a source that
    /// is an object goes to the store, signed, like the line's first. Before, a mirror's
    /// `s3://` URL went to libcurl as it was ("Protocol "s3" not supported").
    func testObjectsInAListAndAsItsOtherSourcesComeFromTheStore() throws {
        let moto = try MotoServer()
        let first = try write("a.bin", count: 300_000)
        let second = try write("b.bin", count: 2_000)
        try moto.upload(files, bucket: "data")
        let dead = "http://127.0.0.1:\(try freePort())/gone.bin"
        try "s3://data/a.bin\n  out=a-copy.bin\ns3://data/gone.bin\t\(dead)\ts3://data/b.bin\n".write(
            to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)

        let result = try afget(["-q", "--retry", "0", "--report", "report.json", "-i", "list.txt"], moto)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("a-copy.bin").path), first)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("gone.bin").path), second)
        XCTAssertFalse(result.stderr.contains("not supported"), result.stderr)
        // The report names each source as the list gave it, the store's objects as s3:// URLs.
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        let line = try XCTUnwrap(report.split(separator: "\n").first { $0.contains("gone.bin") })
        let item = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let sources = try XCTUnwrap(item["sources"] as? [[String: Any]], "\(line)")
        XCTAssertEqual(sources.map { $0["url"] as? String }, ["s3://data/gone.bin", dead, "s3://data/b.bin"], "\(line)")
    }

    func testAPrefixOf2000KeysInNestedDirectoriesIsExact() throws {
        let moto = try MotoServer()
        var expected: [String: String] = [:]
        for index in 0..<2_000 {
            let path = "d\(index % 7)/s\(index % 13)/f\(index).txt"
            expected[path] = try write(path, count: 64 + index % 100)
        }
        try write("elsewhere.txt", count: 10)
        try moto.upload(files, bucket: "many", prefix: "set/")
        let outside = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: outside) }
        try Data("not under the prefix".utf8).write(to: outside.appendingPathComponent("x.txt"))
        try moto.upload(outside, bucket: "many", prefix: "set-not/")

        let started = Date()
        let result = try afget(["-q", "-j", "16", "-d", "out", "--report", "report.json", "s3://many/set/"], moto)
        print("2 001 objects from moto in \(Date().timeIntervalSince(started)) s")
        XCTAssertEqual(result.status, 0, result.stderr)
        let out = directory.appendingPathComponent("out")
        var found: [String: String] = [:]
        let walker = FileManager.default.enumerator(at: out, includingPropertiesForKeys: nil)!
        for case let url as URL in walker where !url.hasDirectoryPath {
            found[String(url.path.dropFirst(out.path.count + 1))] = sha256Hex(ofFile: url.path)
        }
        expected["elsewhere.txt"] = found["elsewhere.txt"]
        XCTAssertEqual(found.count, 2_001)
        XCTAssertEqual(found, expected)

        // --include and --exclude choose keys by their path below the prefix.
        let chosen = try afget(
            ["-q", "-d", "chosen", "--include", "d1/*", "--exclude", "*/s2/*", "s3://many/set/"], moto)
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        let kept = FileManager.default.enumerator(atPath: directory.appendingPathComponent("chosen").path)!
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".txt") }
        XCTAssertEqual(kept.count, expected.keys.filter { $0.hasPrefix("d1/") && !$0.contains("/s2/") }.count)
    }

    func testCtrlCThenTheSameCommandContinuesAndAReplacedObjectStartsOver() throws {
        let moto = try MotoServer()
        let size = 3_000_000
        let first = try write("big.bin", count: size)
        try moto.upload(files, bucket: "cont")
        let resumeData = directory.appendingPathComponent("big.bin.afresume")

        try interruptAfterACheckpoint(
            ["--s3-endpoint", moto.endpoint, "s3://cont/big.bin"], in: directory, environment: moto.signingEnvironment,
            resumeData: resumeData)
        let continued = try afget(["--progress", "line", "s3://cont/big.bin"], moto)
        XCTAssertEqual(continued.status, 0, continued.stderr)
        XCTAssertTrue(continued.stderr.contains("continuing at"), continued.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), first)

        // Stopped again, then the object is replaced: the next run starts over, never splices.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("big.bin"))
        try interruptAfterACheckpoint(
            ["--s3-endpoint", moto.endpoint, "s3://cont/big.bin"], in: directory, environment: moto.signingEnvironment,
            resumeData: resumeData)
        let second = try write("big.bin", count: size)
        try moto.upload(files, bucket: "cont")
        let restarted = try afget(["--progress", "line", "s3://cont/big.bin"], moto)
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertTrue(restarted.stderr.contains("starting over"), restarted.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), second)
    }

    func testSplitIntoFourConnectionsIsExactAndTheETagIsChecked() throws {
        let moto = try MotoServer()
        let sha = try write("large.bin", count: 12_000_000)
        try moto.upload(files, bucket: "split")
        let result = try afget(["-v", "-s", "4", "--min-split-size", "1M", "s3://split/large.bin"], moto)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("large.bin").path), sha)
        XCTAssertGreaterThanOrEqual(result.stderr.components(separatedBy: "Range: bytes=").count - 1, 4, result.stderr)
        XCTAssertFalse(result.stderr.contains("is no MD5"), "a single-part ETag is the MD5 and checked: \(result.stderr)")
    }

    func testSignedReadsAndRefusedCredentials() throws {
        let moto = try MotoServer(checksSignatures: true)
        let sha = try write("dir/private.bin", count: 200_000)
        try moto.upload(files, bucket: "signed")

        let signed = try afget(["-q", "-v", "s3://signed/dir/private.bin"], moto)
        XCTAssertEqual(signed.status, 0, signed.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("private.bin").path), sha)
        XCTAssertFalse(signed.stderr.contains(moto.secretKey), "the secret is never shown")
        XCTAssertTrue(signed.stderr.contains("Authorization: AWS4-HMAC-SHA256 ***"), signed.stderr)

        // Not a signed listing here: moto's IAM mode refuses any signature over an escaped query
        // value (`prefix=dir%2F`), boto3's too; AWS's canonical query escapes `/` so.

        let wrongSecret = "wrong/secret+key"
        let refused = try Afget.run(
            ["--s3-endpoint", moto.endpoint, "-v", "--report", "report.json", "-o", "x.bin", "s3://signed/dir/private.bin"],
            in: directory,
            environment: moto.signingEnvironment.merging(["AWS_SECRET_ACCESS_KEY": wrongSecret]) { $1 })
        XCTAssertEqual(refused.status, 6, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("SignatureDoesNotMatch"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("the secret key does not match"), refused.stderr)
        let report = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        XCTAssertFalse(refused.stderr.contains(wrongSecret) || report.contains(wrongSecret))
        XCTAssertFalse(exists(directory.appendingPathComponent("x.bin")))

        let unknownKey = try Afget.run(
            ["--s3-endpoint", moto.endpoint, "-o", "y.bin", "s3://signed/dir/private.bin"], in: directory,
            environment: moto.signingEnvironment.merging(["AWS_ACCESS_KEY_ID": "AKIDNOBODY"]) { $1 })
        XCTAssertEqual(unknownKey.status, 6, unknownKey.stderr)
        XCTAssertTrue(unknownKey.stderr.contains("InvalidAccessKeyId"), unknownKey.stderr)
    }
}
