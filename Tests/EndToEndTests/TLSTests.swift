import Foundation
import Glibc
import TestServer
import XCTest

/// TLS against servers in the test process presenting certificates made for the test:
/// verification, --insecure, public-key and certificate pins, redirects, client certificates.
final class TLSTests: XCTestCase {
    private let certificates = TestCertificates.shared
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func fetch(_ server: TestHTTPServer, _ options: [String], host: String = "127.0.0.1", size: Int = 5000)
        throws -> AfgetResult
    {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("x.bin"))
        return try Afget.run(
            ["-q", "--retry", "0", "-o", "x.bin"] + options + [server.url("/file/x.bin?size=\(size)", host: host)],
            in: directory)
    }

    private func assertDownloaded(_ result: AfgetResult, size: Int = 5000, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("x.bin").path), TestPayload.sha256(count: size),
            file: file, line: line)
    }

    private func assertRefused(_ result: AfgetResult, _ words: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 5, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr, file: file, line: line)
        for word in words + ["TLS with 127.0.0.1"] {
            XCTAssertTrue(
                result.stderr.lowercased().contains(word.lowercased()), "\(word): \(result.stderr)", file: file, line: line)
        }
        XCTAssertFalse(exists(directory.appendingPathComponent("x.bin")), file: file, line: line)
    }

    func testACertificateFromATrustedCAIsAccepted() throws {
        let server = try TestHTTPServer(tls: certificates.good)
        assertDownloaded(try fetch(server, ["--cacert", certificates.caPath]))
        assertDownloaded(try fetch(server, ["--cacert", certificates.caPath], host: "localhost"))
        let capath = directory.appendingPathComponent("cas")
        try FileManager.default.createDirectory(at: capath, withIntermediateDirectories: true)
        let hash = try subjectHash(certificates.caPath)
        try FileManager.default.copyItem(atPath: certificates.caPath, toPath: capath.appendingPathComponent("\(hash).0").path)
        assertDownloaded(try fetch(server, ["--capath", capath.path]))
    }

    func testUntrustedCertificatesAreRefusedNamingHostAndReason() throws {
        assertRefused(try fetch(try TestHTTPServer(tls: certificates.good), []), ["issuer"])
        for (identity, reason) in [
            (certificates.expired, "expired"), (certificates.wrongName, "name"),
            (certificates.selfSigned, "self-signed"),
        ] {
            let server = try TestHTTPServer(tls: identity)
            assertRefused(try fetch(server, ["--cacert", certificates.caPath]), [reason])
            assertDownloaded(try fetch(server, ["--insecure"]))
        }
    }

    func testPublicKeyPinsHoldEvenWithInsecure() throws {
        let server = try TestHTTPServer(tls: certificates.good)
        assertDownloaded(try fetch(server, ["--cacert", certificates.caPath, "--pin-pubkey", certificates.good.publicKeyPin]))
        let both = certificates.other.publicKeyPin + ";" + certificates.good.publicKeyPin
        assertDownloaded(try fetch(server, ["--cacert", certificates.caPath, "--pin-pubkey", both]))
        assertRefused(
            try fetch(server, ["--cacert", certificates.caPath, "--pin-pubkey", certificates.other.publicKeyPin]),
            ["pinned public key"])
        assertRefused(try fetch(server, ["-k", "--pin-pubkey", certificates.other.publicKeyPin]), ["pinned public key"])
        let selfSigned = try TestHTTPServer(tls: certificates.selfSigned)
        assertDownloaded(try fetch(selfSigned, ["-k", "--pin-pubkey", certificates.selfSigned.publicKeyPin]))
        let bad = try fetch(server, ["--pin-pubkey", "sha256//not-base64"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
    }

    func testCertificatePinsHoldEvenWithInsecure() throws {
        let server = try TestHTTPServer(tls: certificates.good)
        assertDownloaded(try fetch(server, ["--cacert", certificates.caPath, "--pin-cert", certificates.good.certificatePath]))
        assertRefused(
            try fetch(server, ["--cacert", certificates.caPath, "--pin-cert", certificates.other.certificatePath]),
            ["pinned"])
        assertRefused(try fetch(server, ["-k", "--pin-cert", certificates.other.certificatePath]), ["pinned"])
        let selfSigned = try TestHTTPServer(tls: certificates.selfSigned)
        assertDownloaded(try fetch(selfSigned, ["-k", "--pin-cert", certificates.selfSigned.certificatePath]))
        let notACertificate = try fetch(server, ["--pin-cert", certificates.good.privateKeyPath])
        XCTAssertEqual(notACertificate.status, 2, notACertificate.stderr)
    }

    func testPinsApplyToEveryRedirectHop() throws {
        let pinned = try TestHTTPServer(tls: certificates.good)
        let other = try TestHTTPServer(tls: certificates.other)
        let target = other.url("/file/x.bin?size=5000").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let redirect = pinned.url("/redirect?to=\(target)")
        let unpinned = try Afget.run(["-q", "--cacert", certificates.caPath, "-o", "x.bin", redirect], in: directory)
        assertDownloaded(unpinned)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("x.bin"))
        let refused = try Afget.run(
            [
                "-q", "--retry", "0", "--cacert", certificates.caPath, "--pin-pubkey",
                certificates.good.publicKeyPin, "-o", "x.bin", redirect,
            ], in: directory)
        assertRefused(refused, ["pinned public key"])
        XCTAssertEqual(pinned.log.all.count, 2, "the pinned host answered both runs")
        XCTAssertEqual(other.log.all.count, 1, "from the unpinned run only")
    }

    func testAClientCertificateIsPresentedWhenAsked() throws {
        let server = try TestHTTPServer(tls: certificates.good, requiresClientCertificate: true)
        let without = try Afget.run(
            ["-q", "--cacert", certificates.caPath, "-o", "x.bin", server.url("/file/x.bin")],
            in: directory)
        assertRefused(without, ["certificate required"])
        XCTAssertEqual(server.log.all.count, 0)
        assertDownloaded(
            try fetch(
                server,
                [
                    "--cacert", certificates.caPath, "--cert", certificates.client.certificatePath,
                    "--key", certificates.client.privateKeyPath,
                ]))
    }

    func testInsecureIsNotRememberedByResumeData() throws {
        let server = try TestHTTPServer(tls: certificates.selfSigned)
        let size = 2_000_000
        // About two seconds: the checkpoint after the first second has bytes in it.
        let url = server.url("/file/slow.bin?size=\(size)&chunk=50000&ms=50")
        let (process, _, _) = try Afget.start(["-q", "-k", url], in: directory)
        let resumeData = directory.appendingPathComponent("slow.bin.afresume")
        waitUntil("a checkpoint with bytes") { (checkpointedBytes(resumeData) ?? 0) > 0 }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)

        let refused = try Afget.run(["-q", "--retry", "0", url], in: directory)
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertTrue(exists(directory.appendingPathComponent("slow.bin.afpart")), "the data is kept")
        let finished = try Afget.run(["-q", "-k", url], in: directory)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("slow.bin").path), TestPayload.sha256(count: size))
    }

    /// `openssl x509 -subject_hash`, the name --capath looks certificates up by.
    private func subjectHash(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["x509", "-noout", "-subject_hash", "-in", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let hash = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return hash.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
