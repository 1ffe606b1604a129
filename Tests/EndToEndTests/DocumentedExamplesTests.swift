import Foundation
import TestServer
import XCTest

/// Every command of README.md's `sh` blocks and of afget(1)'s EXAMPLES runs as printed, in
/// order, against the test servers in place of the example hosts, so an example cannot lie
/// (one described as a GET sent a POST). README's files (`# urls.txt`, the config file) are
/// written as printed before the commands run.
final class DocumentedExamplesTests: ServerTestCase {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// What `/site` serves for a path nothing was published at: a payload of this size.
    private static let siteFileSize = 2_000_000
    private var intranet: TestHTTPServer!
    private var proxy: ForwardProxy!
    /// `ftp.example.org` and `files.example.org` (SFTP): README's FTP and SFTP examples.
    private var ftp: PyFTPServer!
    private var ssh: SSHServer!
    /// `s3://example-bucket/`: README's S3 examples, through AWS_ENDPOINT_URL.
    private var moto: MotoServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        intranet = try TestHTTPServer(tls: TestCertificates.shared.good)
        proxy = try ForwardProxy()
        ftp = try PyFTPServer()
        ssh = try SSHServer()
        moto = try MotoServer()
    }

    /// The server programs stop with their values: XCTest keeps a test case until the run ends,
    /// and a process that exits runs no deinit.
    override func tearDownWithError() throws {
        ftp = nil
        ssh = nil
        moto = nil
        try super.tearDownWithError()
    }

    struct Example {
        let place: String
        let command: String
        /// What follows `# ` on the line: "GET ?page=2&q=swift".
        var comment: String? { command.range(of: "  # ").map { String(command[$0.upperBound...]) } }
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// README's fenced blocks of one kind, each with the line it starts on.
    private func readmeBlocks(_ kind: String) throws -> [(line: Int, lines: [String])] {
        var blocks: [(Int, [String])] = []
        var current: (Int, [String])?
        for (index, line) in try text("README.md").split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line == "```" + kind {
                current = (index + 2, [])
            } else if let open = current, line == "```" {
                blocks.append(open)
                current = nil
            } else if current != nil {
                current!.1.append(String(line))
            }
        }
        return blocks
    }

    /// The commands of README's `sh` blocks; its first two (the set-up commands CI runs
    /// itself) are left out.
    private func readmeExamples() throws -> [Example] {
        try readmeBlocks("sh").flatMap { block in
            block.lines.enumerated().compactMap { offset, line in
                line.hasPrefix("Scripts/") ? nil : Example(place: "README.md:\(block.line + offset)", command: line)
            }
        }
    }

    /// afget(1)'s EXAMPLES lines, roff escapes undone.
    private func manualExamples() throws -> [Example] {
        let manual = try text("man/man1/afget.1")
        let start = try XCTUnwrap(manual.range(of: ".SH EXAMPLES\n.nf\n"))
        let end = try XCTUnwrap(manual.range(of: "\n.fi", range: start.upperBound..<manual.endIndex))
        return manual[start.upperBound..<end.lowerBound].split(separator: "\n").map {
            Example(
                place: "afget(1) EXAMPLES",
                command: $0.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(dq", with: "\""))
        }
    }

    /// Example hosts → the test servers: the proxy to a forward proxy, `api.` hosts to the echo
    /// route, `intranet.` to a TLS server whose CA is `company-ca.pem`, every other one to
    /// `/site/HOST`.
    private func local(_ text: String) -> String {
        let text = text.replacingOccurrences(of: "http://proxy.example.org:3128", with: proxy.url)
            .replacingOccurrences(of: "ftp://ftp.example.org/", with: ftp.url(""))
            .replacingOccurrences(of: "sftp://files.example.org/srv/", with: ssh.url(""))
        let pattern = try! NSRegularExpression(pattern: "https?://(([a-z0-9-]+\\.)*)example\\.org")
        var result = text
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let range = Range(match.range, in: text)!
            let host = String(text[range]).replacingOccurrences(of: "https://", with: "")
                .replacingOccurrences(of: "http://", with: "")
            let replacement =
                host.hasPrefix("api.")
                ? server.url("/echo")
                : host.hasPrefix("intranet.") ? intranet.url("/site/\(host)") : server.url("/site/\(host)")
            result.replaceSubrange(Range(match.range, in: result)!, with: replacement)
        }
        return result
    }

    /// The files the examples name, and README's `text` blocks that start with `# FILE`; such a
    /// file is also what the site serves where an example fetches a URL ending in its name (a
    /// sums file beside the files it names).
    private func writeTheirFiles(home: URL, examples: [Example]) throws {
        let files = FileManager.default
        try files.createDirectory(at: directory.appendingPathComponent("dir"), withIntermediateDirectories: true)
        for (name, contents) in [
            ("report.pdf", "%PDF-1.4 report"), ("q3.pdf", "%PDF-1.4 q3"), ("photo.jpg", "JPEG"),
            ("data.csv", "a,b\n1,2\n"), ("dir/notes.txt", "notes\n"), ("team.conf", "jobs = 2\nretry = 1\n"),
        ] {
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
        try files.copyItem(
            atPath: TestCertificates.shared.caPath, toPath: directory.appendingPathComponent("company-ca.pem").path)
        for block in try readmeBlocks("text") {
            guard let first = block.lines.first, first.hasPrefix("# ") else { continue }
            let name = String(first.dropFirst(2))
            let file =
                name.hasPrefix("~/")
                ? home.appendingPathComponent(String(name.dropFirst(2))) : directory.appendingPathComponent(name)
            // A checksum in the list, a sums file or the Metalink document is of the file the site
            // serves (the README's is an example's).
            let siteHash = TestPayload.sha256(count: Self.siteFileSize)
            let checked = local(block.lines.dropFirst().joined(separator: "\n"))
                .replacingOccurrences(
                    of: "(sha-256=|<hash type=\"sha-256\">)[0-9a-f]{64}", with: "$1" + siteHash, options: .regularExpression
                )
                .replacingOccurrences(of: "(?m)^[0-9a-f]{64}  ", with: siteHash + "  ", options: .regularExpression)
            try files.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (checked + "\n").write(to: file, atomically: true, encoding: .utf8)
            let fetched = examples.flatMap {
                $0.command.matches(of: /https?:\/\/([a-z.-]*example\.org\/[^ ]*)/).map { "/site/" + $0.1 }
            }
            for path in fetched where path.hasSuffix("/" + name) { server.publish(Array((checked + "\n").utf8), at: path) }
        }
        // The FTP and SFTP servers' files, and the key and known_hosts that let afget in.
        try files.createDirectory(at: ftp.root.appendingPathComponent("pub"), withIntermediateDirectories: true)
        try writeRandomFile(
            ftp.root.appendingPathComponent("pub/release.tar.gz"), count: 100_000, modified: Date(timeIntervalSince1970: 1e9))
        try files.createDirectory(at: ssh.root.appendingPathComponent("data"), withIntermediateDirectories: true)
        try writeRandomFile(
            ssh.root.appendingPathComponent("data/run-42.h5"), count: 100_000, modified: Date(timeIntervalSince1970: 1e9))
        try files.createDirectory(at: home, withIntermediateDirectories: true)
        try files.copyItem(at: ssh.home.appendingPathComponent(".ssh"), to: home.appendingPathComponent(".ssh"))
        // The bucket of the S3 examples: a file, and one in a directory below the prefix.
        let bucket = try makeScratchDirectory()
        defer { try? files.removeItem(at: bucket) }
        try files.createDirectory(at: bucket.appendingPathComponent("datasets/2026"), withIntermediateDirectories: true)
        try Data("a,b\n1,2\n".utf8).write(to: bucket.appendingPathComponent("datasets/train.csv"))
        try Data("c,d\n".utf8).write(to: bucket.appendingPathComponent("datasets/2026/test.csv"))
        try moto.upload(bucket, bucket: "example-bucket")
        // `afget -o - URL/data.tar | tar x` unpacks a real archive.
        let archive = try runBash("tar c dir > data.tar", home: home)
        XCTAssertEqual(archive.status, 0, archive.output)
        server.publish(
            Array(try Data(contentsOf: directory.appendingPathComponent("data.tar"))), at: "/site/example.org/data.tar")
        try files.removeItem(at: directory.appendingPathComponent("data.tar"))
    }

    private func runBash(_ command: String, home: URL) throws -> (status: Int32, output: String) {
        // `afget` is the binary under test; `producer` stands for a program printing URLs.
        let prelude = """
            set -o pipefail; export HOME='\(home.path)' XDG_CONFIG_HOME='\(home.path)/.config'
            export AWS_ENDPOINT_URL='\(moto.endpoint)' AWS_ACCESS_KEY_ID='\(moto.accessKey)' \
                AWS_SECRET_ACCESS_KEY='\(moto.secretKey)'
            afget() { '\(Afget.binary.path)' "$@"; }
            producer() { printf '%s\\n' '\(server.url("/site/example.org/p1.bin"))' '\(server.url("/site/example.org/p2.bin"))'; }

            """
        let run = try runProgram("/bin/bash", ["-c", prelude + command], in: directory)
        return (run.status, run.stdout + run.stderr)
    }

    /// A download of big.iso stopped half way, for the example that continues it from a new URL.
    private func leaveBigIsoHalfDone() throws {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("big.iso"))
        let url = server.url("/flaky/big.iso?size=\(Self.siteFileSize)&fail=1&mode=drop")
        let first = try Afget.run(["-q", "--no-config", "--retry", "0", "-o", "big.iso", url], in: directory)
        XCTAssertEqual(first.status, 4, first.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("big.iso.afresume").path))
    }

    func testEveryDocumentedCommandRunsAndDoesWhatItsCommentSays() throws {
        let home = directory.appendingPathComponent("home")
        let examples = try readmeExamples() + manualExamples()
        try writeTheirFiles(home: home, examples: examples)
        XCTAssertGreaterThanOrEqual(examples.count, 40, "\(examples.map(\.command))")
        for example in examples {
            let command = local(example.command)
            XCTAssertNil(command.range(of: "https?://[a-z.-]*example\\.org", options: .regularExpression), command)
            if example.command.contains("big.iso.afresume --url") { try leaveBigIsoHalfDone() }
            let before = server.log.all.count
            let proxyVisitsBefore = proxy.seen.count
            let result = try runBash(command, home: home)
            // "# ... (exit 141)": a documented status other than success.
            let status = example.comment?.firstMatch(of: /\(exit (\d+)\)/).flatMap { Int32($0.1) } ?? 0
            XCTAssertEqual(result.status, status, "\(example.place): \(example.command)\n\(result.output)")
            let sent = server.log.all.dropFirst(before)

            // "# GET ?page=2&q=swift": the method, and the query string, as the comment says.
            let words = example.comment?.split(separator: " ").map(String.init) ?? []
            if let method = words.first?.trimmingCharacters(in: .punctuationCharacters),
                ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(method)
            {
                XCTAssertEqual(sent.last?.method, method, "\(example.place): \(example.command)")
            }
            if let query = words.first(where: { $0.hasPrefix("?") })?.trimmingCharacters(in: [","]) {
                XCTAssertEqual(sent.last.map { String($0.uri.drop { $0 != "?" }) }, query, example.place)
            }
            if example.command.contains("proxy.example.org") {
                let visits = proxy.seen.dropFirst(proxyVisitsBefore)
                XCTAssertEqual(visits.count, sent.count, "every request through the proxy: \(example.place), \(visits)")
                XCTAssertEqual(
                    visits.last?.requestLine.hasSuffix(sent.last.map { "\($0.uri) HTTP/1.1" } ?? "?"), true, example.place)
            }
            if example.command.contains("big.iso.afresume --url") {
                XCTAssertEqual(
                    sha256Hex(ofFile: directory.appendingPathComponent("big.iso").path),
                    TestPayload.sha256(count: Self.siteFileSize), example.place)
                XCTAssertNotNil(sent.last?.header("Range"), "continued, not started over: \(example.place)")
            }
        }
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("dir/notes.txt"), encoding: .utf8), "notes\n")
        let release = sha256Hex(ofFile: ftp.root.appendingPathComponent("pub/release.tar.gz").path)
        for name in ["release.tar.gz", "private.tar.gz"] {
            XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent(name).path), release, "over FTP: \(name)")
        }
        XCTAssertEqual(
            sha256Hex(ofFile: directory.appendingPathComponent("run-42.h5").path),
            sha256Hex(ofFile: ssh.root.appendingPathComponent("data/run-42.h5").path), "over SFTP")
        XCTAssertEqual(
            try Data(contentsOf: ssh.root.appendingPathComponent("incoming/2026/report.pdf")),
            try Data(contentsOf: directory.appendingPathComponent("report.pdf")), "uploaded over SFTP")
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: directory.appendingPathComponent("downloads/exports/export-2026-11-21.csv").path),
            "the list's out= and dir=")
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("train.csv"), encoding: .utf8), "a,b\n1,2\n")
        XCTAssertEqual(
            try String(contentsOf: directory.appendingPathComponent("data/2026/test.csv"), encoding: .utf8), "c,d\n",
            "a prefix's keys below -d")
    }

    /// docs/fleet.md's jq line merges the reports of three shards into one in list order, with
    /// the summaries added up.
    func testTheFleetRecipesReportMergeIsOneReportInListOrder() throws {
        let text = try text("docs/fleet.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("    jq -s ") })
        let end = try XCTUnwrap(lines[start...].firstIndex { $0.hasSuffix("> report.json") })
        let merge = lines[start...end].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")

        let list = (0..<12).map { server.url("/file/m\($0).bin?size=50") }.joined(separator: "\n")
        try list.write(to: directory.appendingPathComponent("urls.txt"), atomically: true, encoding: .utf8)
        for shard in 0..<3 {
            let result = try Afget.run(
                ["-q", "-i", "urls.txt", "--shard", "\(shard)/3", "-d", "data", "--report", "shard-\(shard).json"],
                in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let merged = try runShell(merge, in: directory)
        XCTAssertEqual(merged.status, 0, merged.stderr)
        let report = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("report.json")))
                as? [String: Any])
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["id"] as? Int }, Array(0..<12))
        let summary = try XCTUnwrap(report["summary"] as? [String: Any])
        XCTAssertEqual(summary["downloaded"] as? Int, 12)
        XCTAssertEqual(summary["exit"] as? Int, 0)
        XCTAssertEqual(listing(directory.appendingPathComponent("data")).count, 12)
    }
}
