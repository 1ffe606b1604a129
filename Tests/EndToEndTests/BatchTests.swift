import Foundation
import TestServer
import XCTest

/// Input lists, parallel transfers, reports and re-runs that finish the job.
final class BatchTests: ServerTestCase {
    private func writeList(_ text: String, name: String = "urls.txt") throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    private func sha(_ path: String) -> String? {
        sha256Hex(ofFile: directory.appendingPathComponent(path).path)
    }

    /// `report.json` in the test's directory.
    private func report() throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("report.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The items of `report.json`, in input order (the report lists them as they ended, each
    /// with its index as `id`).
    private func reportItems() throws -> [[String: Any]] {
        let items = try XCTUnwrap(try report()["items"] as? [[String: Any]])
        return items.sorted { ($0["id"] as? Int ?? -1) < ($1["id"] as? Int ?? -1) }
    }

    func testListWithOptionLinesAndCommandLineURLs() throws {
        try writeList(
            """
            # nightly data
            \(server.url("/file/a.bin?size=1000"))
              out=renamed.bin
              header=X-Token: abc

            \(server.url("/file/b.bin?size=2000"))
            \tdir=sub/dir
            \tchecksum=sha-256=\(TestPayload.sha256(count: 2000))
            """)
        let result = try Afget.run(["-q", "-d", "out", "-i", "urls.txt", server.url("/file/c.bin?size=3000")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("out/renamed.bin"), TestPayload.sha256(count: 1000))
        XCTAssertEqual(sha("out/sub/dir/b.bin"), TestPayload.sha256(count: 2000))
        XCTAssertEqual(sha("out/c.bin"), TestPayload.sha256(count: 3000))
        let tokened = server.log.all.filter { $0.header("X-Token") != nil }
        XCTAssertEqual(tokened.map(\.uri), ["/file/a.bin?size=1000"], "header= applies to its own URL only")
    }

    /// A list saved with Windows line ends reads like any other.
    func testListWithCRLFLineEnds() throws {
        try writeList(
            server.url("/file/w1.bin?size=700") + "\r\n" + server.url("/file/w2.bin?size=800") + "\r\n  out=two.bin\r\n")
        let result = try Afget.run(["-q", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("w1.bin"), TestPayload.sha256(count: 700))
        XCTAssertEqual(sha("two.bin"), TestPayload.sha256(count: 800))
    }

    /// Finished files wait to be moved into place with their part files open: a low limit on
    /// open files makes fewer of them wait, and the batch still completes. A `-j` beyond what
    /// the limit allows runs fewer at once instead of failing items with "Too many open files".
    func testBatchUnderALowOpenFileLimit() throws {
        try writeList((0..<120).map { server.url("/file/n\($0).bin?size=300") }.joined(separator: "\n"))
        for (jobs, out) in [(8, "out"), (500, "many")] {
            let command = "ulimit -n 48 && exec '\(Afget.binary.path)' -q -j \(jobs) -d \(out) -i urls.txt"
            let (status, stderr) = try runShell(command, in: directory)
            XCTAssertEqual(status, 0, stderr)
            XCTAssertEqual(stderr, "")
            for index in 0..<120 { XCTAssertEqual(sha("\(out)/n\(index).bin"), TestPayload.sha256(count: 300)) }
        }
    }

    func testListFromStdin() throws {
        try writeList(server.url("/file/s.bin?size=500") + "\n")
        let process = Process()
        process.executableURL = Afget.binary
        process.arguments = ["-q", "-i", "-"]
        process.currentDirectoryURL = directory
        process.standardInput = try FileHandle(forReadingFrom: directory.appendingPathComponent("urls.txt"))
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(sha("s.bin"), TestPayload.sha256(count: 500))
    }

    /// A list from a pipe is read as it comes: an item starts (and ends) as soon as its line has
    /// arrived, while the writer has not sent the next.
    func testAListFromAPipeStartsEachItemAsItsLineArrives() throws {
        let pipe = Pipe()
        let (process, _, errors) = try Afget.start(["--progress", "line", "-i", "-"], in: directory, feeding: pipe)
        pipe.fileHandleForWriting.write(Data((server.url("/file/first.bin?size=3000") + "\n").utf8))
        waitUntil("the first item done while the list is still open") { sha("first.bin") == TestPayload.sha256(count: 3000) }
        XCTAssertTrue(process.isRunning, "waiting for more of the list")
        pipe.fileHandleForWriting.write(Data((server.url("/file/second.bin?size=2000") + "\n").utf8))
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(sha("second.bin"), TestPayload.sha256(count: 2000))
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        XCTAssertTrue(stderr.contains("2 downloaded, 0 skipped, 0 failed"), stderr)
    }

    /// From standard input, a second URL for a destination already taken is refused when it
    /// arrives (naming both lines, exit 2 at the end); the other items still download, and an
    /// identical line is fetched once.
    func testADuplicateFromStandardInputIsRefusedAsItArrives() throws {
        let list = [
            server.url("/file/x.bin?size=10"), server.url("/file/y.bin?size=20"), "  out=x.bin",
            server.url("/file/z.bin?size=30"), server.url("/file/z.bin?size=30"),
        ].joined(separator: "\n")
        let result = try Afget.run(["-i", "-", "--progress", "line"], in: directory, input: Data(list.utf8))
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "afget: x.bin: stdin:1 and stdin:2 would both write this file; give one of them out= or -o, or add --on-conflict rename to number the later one"
            ),
            result.stderr)
        XCTAssertTrue(
            result.stderr.contains("afget: stdin:5: same URL and destination as stdin:4; downloading it once"), result.stderr)
        XCTAssertEqual(sha("x.bin"), TestPayload.sha256(count: 10))
        XCTAssertEqual(sha("z.bin"), TestPayload.sha256(count: 30))
        XCTAssertEqual(server.log.all.filter { $0.uri.contains("z.bin") }.count, 1)
        XCTAssertFalse(server.log.all.contains { $0.uri.contains("y.bin") })
    }

    /// Two afget runs on one list: the second finds the first downloading every item, says so
    /// once in its summary rather than once per item, and exits 12.
    func testAnotherAfgetDownloadingTheItemsIsToldOnceAndExits12() throws {
        let names = (0..<3).map { "busy\($0).bin" }
        try writeList(names.map { server.url("/file/\($0)?size=3000000&chunk=20000&ms=20") }.joined(separator: "\n"))
        let (first, _, _) = try Afget.start(["-q", "-j", "3", "-i", "urls.txt"], in: directory)
        defer {
            kill(first.processIdentifier, SIGINT)
            first.waitUntilExit()
        }
        waitUntil("the first run's checkpoints") {
            names.allSatisfy { (checkpointedBytes(directory.appendingPathComponent("\($0).afresume")) ?? 0) > 0 }
        }

        let second = try Afget.run(["--progress", "line", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(second.status, 12, second.stderr)
        let told = second.stderrLines.filter { $0.contains("another afget") }
        XCTAssertEqual(told.count, 1, second.stderr)
        XCTAssertTrue(told.first?.hasPrefix("afget: 0 downloaded, 0 skipped, 0 failed; ") == true, second.stderr)
        XCTAssertTrue(told.first?.hasSuffix("; 3 items were being downloaded by another afget") == true, second.stderr)
    }

    /// `--shard auto` takes the shard from the engine that started the run: a Slurm job array
    /// counted from 1 and a Kubernetes Indexed Job (told the count) take exactly the items
    /// `--shard K/N` takes; with no engine, or none that gives a count, it is a usage error.
    func testTheShardComesFromTheSchedulersEnvironment() throws {
        let lines = (0..<30).map { server.url("/file/e\($0).bin?size=100") }
        try writeList(lines.joined(separator: "\n"))
        let none = ["SLURM_ARRAY_TASK_ID": "", "JOB_COMPLETION_INDEX": ""]
        let given = try Afget.run(["-q", "--shard", "1/3", "-d", "given", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(given.status, 0, given.stderr)
        let expected = Set(listing(directory.appendingPathComponent("given")))
        let slurm = [
            "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3",
            "SLURM_ARRAY_TASK_STEP": "1", "JOB_COMPLETION_INDEX": "",
        ]
        let fromSlurm = try Afget.run(
            ["--progress", "line", "--shard", "auto", "-d", "slurm", "-i", "urls.txt"], in: directory, environment: slurm)
        XCTAssertEqual(fromSlurm.status, 0, fromSlurm.stderr)
        XCTAssertTrue(fromSlurm.stderr.contains("; shard 1/3: \(expected.count) of 30 items"), fromSlurm.stderr)
        XCTAssertEqual(Set(listing(directory.appendingPathComponent("slurm"))), expected)
        let fromKubernetes = try Afget.run(
            ["-q", "--shard", "auto/3", "-d", "k8s", "-i", "urls.txt"], in: directory,
            environment: none.merging(["JOB_COMPLETION_INDEX": "1"]) { $1 })
        XCTAssertEqual(fromKubernetes.status, 0, fromKubernetes.stderr)
        XCTAssertEqual(Set(listing(directory.appendingPathComponent("k8s"))), expected)

        let noEngine = try Afget.run(["-q", "--shard", "auto", "-i", "urls.txt"], in: directory, environment: none)
        XCTAssertEqual(noEngine.status, 2, noEngine.stderr)
        XCTAssertTrue(noEngine.stderr.contains("neither JOB_COMPLETION_INDEX"), noEngine.stderr)
        let noCount = try Afget.run(
            ["-q", "--shard", "auto", "-i", "urls.txt"], in: directory,
            environment: none.merging(["JOB_COMPLETION_INDEX": "1"]) { $1 })
        XCTAssertEqual(noCount.status, 2, noCount.stderr)
        XCTAssertTrue(noCount.stderr.contains("give --shard auto/N"), noCount.stderr)
    }

    /// Three shards, each into a directory of its own, download every item of a list exactly
    /// once, and a shard takes the same items from the list in another order.
    func testShardsCoverAListExactlyOnceWhateverItsOrder() throws {
        let names = (0..<30).map { "s\($0).bin" }
        let lines = names.map { server.url("/file/\($0)?size=100") }
        try writeList(lines.joined(separator: "\n"))
        var taken: [Set<String>] = []
        for index in 0..<3 {
            let result = try Afget.run(
                ["--progress", "line", "--shard", "\(index)/3", "-d", "out\(index)", "-i", "urls.txt"], in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
            let files = Set(listing(directory.appendingPathComponent("out\(index)")))
            XCTAssertTrue(result.stderr.contains("; shard \(index)/3: \(files.count) of 30 items"), result.stderr)
            for name in files { XCTAssertEqual(sha("out\(index)/\(name)"), TestPayload.sha256(count: 100)) }
            taken.append(files)
        }
        XCTAssertEqual(taken.reduce(0) { $0 + $1.count }, 30, "no item twice")
        XCTAssertEqual(taken.reduce(Set()) { $0.union($1) }, Set(names), "every item once")
        XCTAssertTrue(taken.allSatisfy { !$0.isEmpty }, "\(taken.map(\.count))")

        try lines.reversed().joined(separator: "\n").write(
            to: directory.appendingPathComponent("reversed.txt"), atomically: true, encoding: .utf8)
        let reordered = try Afget.run(["-q", "--shard", "1/3", "-d", "again", "-i", "reversed.txt"], in: directory)
        XCTAssertEqual(reordered.status, 0, reordered.stderr)
        XCTAssertEqual(Set(listing(directory.appendingPathComponent("again"))), taken[1])

        let wrong = try Afget.run(["-q", "--shard", "3/3", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("--shard 3/3"), wrong.stderr)
    }

    /// A list named by a path that is a pipe (`/dev/stdin`, `<(...)`) is read once, as it comes:
    /// a first pass would have used it up.
    func testAListPathThatIsAPipeIsReadOnce() throws {
        let pipe = Pipe()
        let (process, _, _) = try Afget.start(["-q", "-i", "/dev/stdin"], in: directory, feeding: pipe)
        let lines = [server.url("/file/p1.bin?size=100"), server.url("/file/p2.bin?size=200")]
        pipe.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(sha("p1.bin"), TestPayload.sha256(count: 100))
        XCTAssertEqual(sha("p2.bin"), TestPayload.sha256(count: 200))
    }

    /// From a pipe, an option line written on its own right after its URL line still belongs
    /// to it.
    func testOptionLinesWrittenApartFromTheirURLStillBelongToIt() throws {
        let pipe = Pipe()
        let (process, _, _) = try Afget.start(["-q", "-i", "-"], in: directory, feeding: pipe)
        for line in [server.url("/file/named.bin?size=100"), "  out=renamed.bin"] {
            pipe.fileHandleForWriting.write(Data((line + "\n").utf8))
        }
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(listing(directory), ["renamed.bin"])
    }

    /// Command-line URLs merged as duplicates keep their numbers: the list's items come after
    /// all of them, every id once; a list line that repeats a command-line URL is merged too.
    func testItemIdsStayUniqueWhenCommandLineURLsAreMerged() throws {
        let (a, b, c) = (server.url("/file/a.bin?size=10"), server.url("/file/b.bin?size=20"), server.url("/file/c.bin?size=30"))
        try writeList("\(c)\n\(b)\n")
        let result = try Afget.run(["--progress", "line", "--report", "report.json", a, a, b, "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("urls.txt:2: same URL and destination as \(b)"), result.stderr)
        let ids = try reportItems().map { $0["id"] as? Int }
        XCTAssertEqual(ids, [0, 2, 3], "a, b, then the list's c after the three URLs")
    }

    /// `--report` naming where an item from a pipe would be downloaded refuses that item as it
    /// arrives; the report is written, the others download.
    func testAReportOverAnItemFromAPipeRefusesTheItem() throws {
        let list = [server.url("/file/x.bin?size=10"), "  out=report.json", server.url("/file/y.bin?size=20")]
            .joined(separator: "\n")
        let result = try Afget.run(["-q", "--report", "report.json", "-i", "-"], in: directory, input: Data(list.utf8))
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--report report.json is where this item would be downloaded"), result.stderr)
        XCTAssertEqual(sha("y.bin"), TestPayload.sha256(count: 20))
        XCTAssertEqual(try reportItems().count, 2)
    }

    /// A report that cannot be opened ends a list run with exit 3, not a crash, whatever the
    /// list thread has read by then.
    func testAListRunWhoseReportCannotBeOpenedExits3() throws {
        try writeList((0..<5).map { server.url("/file/r\($0).bin?size=10") }.joined(separator: "\n"))
        let result = try Afget.run(["-q", "--report", "no/such/dir/r.json", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertEqual(server.log.all.count, 0)
    }

    /// Under the summary of twelve failures: the first ten of `missing` in list order, then how many more.
    private func assertTheSummaryListsTheFirstTen(
        of missing: [String], in result: AfgetResult, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let lines = result.stderrLines
        let summary = try XCTUnwrap(
            lines.firstIndex { $0.hasPrefix("afget: 0 downloaded, 0 skipped, 12 failed") }, result.stderr, file: file,
            line: line)
        XCTAssertEqual(
            Array(lines[(summary + 1)...]),
            missing.prefix(10).map { "  \($0): HTTP 404 Not Found" } + ["  and 2 more: see --report"], file: file, line: line)
    }

    /// A bad list line takes its place in the list order of the summary's failed items.
    func testABadListLineIsListedInItsPlace() throws {
        let missing = (0..<11).map { server.url("/status/404/m\($0)") }
        try writeList((missing + ["notaurl"]).joined(separator: "\n"))
        let result = try Afget.run(["--progress", "line", "-j", "4", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        try assertTheSummaryListsTheFirstTen(of: missing, in: result)
    }

    /// A NUL in a URL's line refuses the line with its number, as any other control byte
    /// does: the URL was cut at the NUL (libcurl reads C strings), fetched, and counted as
    /// downloaded under the whole line's URL.
    func testALineWithANulIsRefusedWithItsNumber() throws {
        try writeList(
            [server.url("/file/nul1\u{0}.x"), server.url("/file/soh\u{01}.x"), server.url("/file/ok.bin?size=100")]
                .joined(separator: "\n"))
        let result = try Afget.run(["-q", "-i", "urls.txt", "--report", "report.json"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        for refusal in ["urls.txt:1: malformed URL: Malformed input to a URL function", "urls.txt:2: malformed URL: Bad path"] {
            XCTAssertTrue(result.stderrLines.contains("afget: " + refusal), result.stderr.debugDescription)
        }
        XCTAssertEqual(server.log.all.map(\.uri), ["/file/ok.bin?size=100"], "nothing fetched for the refused lines")
        XCTAssertEqual(listing(directory).sorted(), ["ok.bin", "report.json", "urls.txt"])
        XCTAssertEqual(try reportItems().map { $0["outcome"] as? String }, ["failed", "failed", "downloaded"])
    }

    /// The summary ends with the failed items, the first ten in list order whatever order they
    /// failed in (four at once), and how many more the report has: on a terminal their lines
    /// have long scrolled away.
    func testTheSummaryListsTheFailedItems() throws {
        let missing = (0..<12).map { server.url("/status/404/m\($0)") }
        let result = try Afget.run(["--progress", "line", "-j", "4"] + missing, in: directory)
        XCTAssertEqual(result.status, 8, result.stderr)
        try assertTheSummaryListsTheFirstTen(of: missing, in: result)
    }

    func testFailuresAmongGoodItemsAndTheReport() throws {
        let refused = "http://127.0.0.1:\(try freePort())/r.bin"
        try writeList(
            """
            \(server.url("/file/good1.bin?size=4000"))
            \(server.url("/status/404"))
              out=missing.bin
            \(server.url("/status/500"))
              out=broken.bin
            \(refused)
            not a url
              out=ignored.bin
            \(server.url("/file/good2.bin?size=5000"))
            \(server.url("/file/unchecked.bin?size=6000"))
              checksum=sha-256=12ab
            """)
        let result = try Afget.run(
            ["--progress", "line", "--retry", "0", "-i", "urls.txt", "--report", "report.json"], in: directory)
        XCTAssertEqual(result.status, 2, "the malformed line (2) is the lowest code: \(result.stderr)")
        XCTAssertEqual(listing(directory).sorted(), ["good1.bin", "good2.bin", "report.json", "urls.txt"], "no empty files")
        XCTAssertEqual(sha("good1.bin"), TestPayload.sha256(count: 4000))
        XCTAssertEqual(sha("good2.bin"), TestPayload.sha256(count: 5000))
        XCTAssertTrue(
            result.stderr.contains(
                "afget: urls.txt:7: not a URL: it must start with http://, https://, ftp://, ftps://, sftp:// or scp://"),
            result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "afget: urls.txt:11: sha-256 checksum must be 64 hex digits; not downloading "
                    + server.url("/file/unchecked.bin?size=6000")), result.stderr)
        XCTAssertFalse(server.log.all.contains { $0.uri.contains("unchecked") }, "not fetched unverified")
        XCTAssertTrue(result.stderr.contains("2 downloaded, 0 skipped, 5 failed"), result.stderr)
        XCTAssertFalse(result.stderr.contains("\r"))

        let report = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("report.json")))
                as? [String: Any])
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 7)
        let good = try XCTUnwrap(items.first { $0["path"] as? String == "good1.bin" })
        XCTAssertEqual(good["outcome"] as? String, "downloaded")
        XCTAssertEqual(good["http_status"] as? Int, 200)
        XCTAssertEqual(good["bytes"] as? Int, 4000)
        XCTAssertEqual(good["sha256"] as? String, TestPayload.sha256(count: 4000))
        XCTAssertEqual(good["attempts"] as? Int, 1)
        let missing = try XCTUnwrap(items.first { $0["path"] as? String == "missing.bin" })
        XCTAssertEqual(missing["outcome"] as? String, "failed")
        XCTAssertEqual(missing["http_status"] as? Int, 404)
        let error = try XCTUnwrap(missing["error"] as? [String: Any])
        XCTAssertEqual(error["exit"] as? Int, 8)
        XCTAssertEqual(error["class"] as? String, "http")
        let refusedItem = try XCTUnwrap(items.first { $0["url"] as? String == refused })
        XCTAssertEqual((refusedItem["error"] as? [String: Any])?["exit"] as? Int, 4)
        let dropped = try XCTUnwrap(items.first { $0["path"] as? String == "urls.txt:11" })
        XCTAssertEqual(
            dropped["url"] as? String, server.url("/file/unchecked.bin?size=6000"), "the URL its bad line kept from being fetched"
        )
        XCTAssertEqual(dropped["outcome"] as? String, "failed")
        let summary = try XCTUnwrap(report["summary"] as? [String: Any])
        XCTAssertEqual(summary["downloaded"] as? Int, 2)
        XCTAssertEqual(summary["failed"] as? Int, 5)
        XCTAssertEqual(summary["exit"] as? Int, 2)
    }

    /// One transfer at a time, each item's request made on the handle the one before it used
    /// (`SpareHandles`, reset between): nothing of an earlier item's request goes with a later
    /// one, neither its `header=` line nor its range.
    func testAnItemsRequestCarriesNothingOfTheItemBeforeIt() throws {
        try writeList(
            """
            \(server.url("/file/first.bin?size=1000"))
              header=X-Token: abc
            \(server.url("/file/second.bin?size=2000"))
            \(server.url("/file/third.bin?size=3000"))
            """)
        // The first item continues a file of its first 400 bytes: its request has a range.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        try Data(TestPayload.bytes(0..<400)).write(to: directory.appendingPathComponent("out/first.bin"))
        let result = try Afget.run(["-q", "-c", "-j", "1", "-d", "out", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sha("out/first.bin"), TestPayload.sha256(count: 1000))
        XCTAssertEqual(sha("out/second.bin"), TestPayload.sha256(count: 2000))
        XCTAssertEqual(sha("out/third.bin"), TestPayload.sha256(count: 3000))
        // The first item's requests (its continue is checked against the file's bytes first).
        let requests = server.log.all
        let first = requests.filter { $0.uri == "/file/first.bin?size=1000" }
        XCTAssertEqual(first.map { $0.header("X-Token") }, first.map { _ in "abc" })
        XCTAssertEqual(first.last?.header("Range"), "bytes=400-")
        let later = requests.drop { $0.uri == "/file/first.bin?size=1000" }
        XCTAssertEqual(later.map(\.uri), ["/file/second.bin?size=2000", "/file/third.bin?size=3000"])
        XCTAssertEqual(later.map { $0.header("X-Token") }, [nil, nil])
        XCTAssertEqual(later.map { $0.header("Range") }, [nil, nil])
    }

    /// libcurl cannot send a request head over 1 MiB, and used to fail it as "Out of memory",
    /// exit 1 (a bug); such an item is now bad input, and the rest of the list still downloads.
    func testARequestTooLargeToSendIsBadInputNotAnInternalError() throws {
        let huge = String(repeating: "a", count: 1_100_000)
        try writeList(
            """
            \(server.url("/file/long.bin?q=\(huge)"))
            \(server.url("/file/headed.bin?size=10"))
              header=X-Big: \(huge)
            \(server.url("/file/good.bin?size=3000"))
            """)
        let result = try Afget.run(["-q", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(listing(directory).sorted(), ["good.bin", "urls.txt"])
        XCTAssertEqual(sha("good.bin"), TestPayload.sha256(count: 3000))
        let lines = result.stderr.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("afget: urls.txt:1: URL too long: ") }, result.stderr)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("afget: \(server.url("/file/headed.bin?size=10")): the URL and headers come to ") },
            result.stderr)
        XCTAssertFalse(result.stderr.contains("memory"), result.stderr)
        XCTAssertEqual(server.log.all.map(\.uri), ["/file/good.bin?size=3000"], "nothing of the others was sent")
    }

    /// A download named like another's part file or resume data is refused: it used to be skipped
    /// as "already exists" while the other item ran, and a later run would have taken it for that
    /// item's part file and started it over, losing it.
    func testANameOfAfgetsOwnFilesIsRefused() throws {
        try writeList(
            """
            \(server.url("/file/a.bin?size=3000"))
            \(server.url("/file/b.bin?size=10"))
              out=a.bin.afpart
            \(server.url("/file/c.afresume?size=10"))
            """)
        let result = try Afget.run(["-q", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(listing(directory).sorted(), ["a.bin", "urls.txt"])
        XCTAssertEqual(sha("a.bin"), TestPayload.sha256(count: 3000))
        let why =
            "a name ending in .afpart, .afresume or .aftmp would be taken for afget's own files of another download; "
            + "choose another name with -o or out="
        XCTAssertEqual(
            result.stderrLines.dropLast().sorted(),
            ["afget: urls.txt:2: a.bin.afpart: \(why)", "afget: urls.txt:4: c.afresume: \(why)"])
        XCTAssertTrue(result.stderrLines.last?.hasPrefix("afget: 1 downloaded, 0 skipped, 2 failed; ") == true, result.stderr)
        let single = try Afget.run(["-q", "-o", "x.aftmp", server.url("/file/x.bin?size=10")], in: directory)
        XCTAssertEqual(single.status, 2)
        XCTAssertEqual(single.stderrLines, ["afget: \(server.url("/file/x.bin?size=10")): x.aftmp: \(why)"])
        XCTAssertEqual(server.log.all.map(\.uri), ["/file/a.bin?size=3000"])
    }

    func testDuplicateDestinationsAreRejectedBeforeAnyTransfer() throws {
        try writeList(
            """
            \(server.url("/file/x.bin?size=10"))
            \(server.url("/file/y.bin?size=20"))
              out=x.bin
            """)
        let result = try Afget.run(["-q", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(
            result.stderrLines,
            [
                "afget: x.bin: urls.txt:1 and urls.txt:2 would both write this file; give one of them out= or -o, or add --on-conflict rename to number the later one"
            ])
        XCTAssertEqual(server.log.all.count, 0)
    }

    /// One directory by two names (`sub/..`, a symlink to it) is one directory: the two items
    /// used to start together, and the second failed on the first's lock as "another afget".
    func testDuplicateDestinationsAreFoundThroughOtherNamesOfTheDirectory() throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("here").path, withDestinationPath: ".")
        for other in ["dir=sub/..", "dir=here"] {
            try writeList(
                """
                \(server.url("/file/x.bin?size=10"))
                  \(other)
                \(server.url("/file/y.bin?size=20"))
                  out=x.bin
                """)
            let result = try Afget.run(["-q", "-i", "urls.txt"], in: directory)
            XCTAssertEqual(result.status, 2, other)
            XCTAssertEqual(
                result.stderrLines,
                [
                    "afget: x.bin: urls.txt:1 and urls.txt:3 would both write this file; give one of them out= or -o, or add --on-conflict rename to number the later one"
                ],
                other)
        }
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(listing(directory).sorted(), ["here", "sub", "urls.txt"])
    }

    /// A report that could not be written at the end is refused at the start, before the batch
    /// spends its time.
    func testAReportPathThatCannotBeWrittenIsRefusedBeforeAnyTransfer() throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("taken"), withIntermediateDirectories: true)
        for (report, cause) in [("missing/report.json", "No such file or directory"), ("taken", "Is a directory")] {
            let result = try Afget.run(["-q", "--report", report, server.url("/file/x.bin?size=10")], in: directory)
            XCTAssertEqual(result.status, 3, result.stderr)
            XCTAssertEqual(result.stderrLines, ["afget: cannot write the report \(report): \(cause)"])
        }
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(listing(directory), ["taken"])
    }

    /// A report over the input list, or over a file the run downloads, would lose what a re-run
    /// needs: refused before any transfer, under any name of that file.
    func testAReportOverTheListOrADownloadIsRefused() throws {
        let url = server.url("/file/a.bin?size=100")
        try writeList("\(url)\n")
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("link.txt"), withDestinationURL: directory.appendingPathComponent("urls.txt"))
        let absolute = directory.appendingPathComponent("a.bin").path
        let cases: [([String], String)] = [
            (["-i", "urls.txt", "--report", "./urls.txt"], "./urls.txt is the input list, which the report would replace"),
            (["-i", "link.txt", "--report", "urls.txt"], "urls.txt is the input list, which the report would replace"),
            (["-d", "dl", "--report", "dl/a.bin", url], "dl/a.bin is where \(url) is downloaded"),
            (["--report", absolute, url], "\(absolute) is where \(url) is downloaded"),
        ]
        for (arguments, cause) in cases {
            let result = try Afget.run(["-q"] + arguments, in: directory)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertEqual(result.stderrLines, ["afget: --report \(cause); name another file"])
        }
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("urls.txt"), encoding: .utf8), "\(url)\n")
        XCTAssertEqual(listing(directory), ["link.txt", "urls.txt"])
    }

    /// The report and a download are compared by directory as the file system resolves it, as
    /// two downloads are: a report through a symlink to the download's directory is refused too.
    func testAReportOverADownloadThroughAnotherNameOfItsDirectoryIsRefused() throws {
        let url = server.url("/file/a.bin?size=100")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("here").path, withDestinationPath: ".")
        let result = try Afget.run(["-q", "--report", "here/a.bin", url], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(result.stderrLines, ["afget: --report here/a.bin is where \(url) is downloaded; name another file"])
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(listing(directory), ["here"])
    }

    /// A report to a FIFO (as to `/dev/stdout`) is written into it, not renamed over it; a
    /// device that refuses the bytes (`/dev/full`) is a local-file failure, and the downloaded
    /// file stays.
    func testAReportToAFIFOOrDeviceIsWrittenInPlace() throws {
        let fifo = directory.appendingPathComponent("report.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Open for reading first, so afget's open for writing does not wait; the one-item
        // report fits in the pipe's buffer.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let result = try Afget.run(["-q", "--report", "report.fifo", server.url("/file/a.bin?size=100")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        var received = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(reader, &received, received.count)
        XCTAssertGreaterThan(count, 0, "the report went into the FIFO")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(received.prefix(max(0, count)))) as? [String: Any])
        let items = try XCTUnwrap(report["items"] as? [[String: Any]])
        XCTAssertEqual(items.first?["sha256"] as? String, TestPayload.sha256(count: 100))
        var status = stat()
        XCTAssertEqual(lstat(fifo, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "still a FIFO, not replaced by a file")
        XCTAssertEqual(listing(directory), ["a.bin", "report.fifo"])

        guard stat("/dev/full", &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { return }
        let full = try Afget.run(["-q", "--report", "/dev/full", server.url("/file/b.bin?size=100")], in: directory)
        XCTAssertEqual(full.status, 3, full.stderr)
        XCTAssertEqual(full.stderrLines, ["afget: cannot write the report /dev/full: No space left on device"])
        XCTAssertEqual(sha("b.bin"), TestPayload.sha256(count: 100))
        XCTAssertEqual(stat("/dev/full", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR, "still the device")
    }

    /// `--report /dev/stdout` is afget's standard output, also when that is a file: appended to
    /// after `>>`, and nothing is made or replaced beside it. Named here as /proc/self/fd/1 (the
    /// same stream, see `OutputStreamTests`), where a regression could not replace anything.
    func testAReportToStandardOutputGoesToTheStream() throws {
        let result = try Afget.run(["-q", "--report", "/proc/self/fd/1", server.url("/file/a.bin?size=100")], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual((report["items"] as? [[String: Any]])?.first?["sha256"] as? String, TestPayload.sha256(count: 100))

        let command =
            "echo first > out.txt && '\(Afget.binary.path)' -q --report /proc/self/fd/1 '\(server.url("/file/b.bin?size=100"))' >> out.txt"
        let appended = try runShell(command, in: directory)
        XCTAssertEqual(appended.status, 0, appended.stderr)
        let text = try String(contentsOf: directory.appendingPathComponent("out.txt"), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("first\n{\n  \"items\": ["), text)
        XCTAssertTrue(text.contains("\"path\":\"b.bin\""), text)
        var status = stat()
        XCTAssertEqual(lstat("/dev/stdout", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFLNK, "/dev/stdout is still the link it was")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/dev/stdout.aftmp"))
    }

    func testIdenticalItemsAreMerged() throws {
        let url = server.url("/file/same.bin?size=10")
        try writeList("\(url)\n\(url)\n")
        let result = try Afget.run(["--progress", "line", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("urls.txt:2: same URL and destination as urls.txt:1"), result.stderr)
        XCTAssertEqual(server.log.all.count, 1)
    }

    /// The same URL and file with another checksum= or header= is not merged: that dropped the
    /// second checksum unsaid, and the file was kept unverified with exit 0.
    func testTheSameItemWithOtherOptionsIsAConflict() throws {
        let url = server.url("/file/same.bin?size=10")
        try writeList("\(url)\n\(url)\n  checksum=sha-256=\(String(repeating: "0", count: 64))\n")
        let result = try Afget.run(["-i", "urls.txt"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(
            result.stderrLines,
            [
                "afget: same.bin: urls.txt:1 and urls.txt:2 fetch the same URL into this file "
                    + "with different checksum= or header= lines; keep one of them"
            ])
        try writeList("\(url)\n  header=X-Token: a\n\(url)\n  header=X-Token: b\n")
        XCTAssertEqual(try Afget.run(["-q", "-i", "urls.txt"], in: directory).status, 2)
        XCTAssertEqual(server.log.all.count, 0)
        XCTAssertEqual(listing(directory), ["urls.txt"])
    }

    func testJobsBoundIsRespected() throws {
        let urls = (0..<8).map { server.url("/file/p\($0).bin?size=40000&chunk=10000&ms=30") }
        let result = try Afget.run(["-q", "-j", "3"] + urls, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.mostConcurrentResponses, 3, "three at once, never more")
        for index in 0..<8 {
            XCTAssertEqual(sha("p\(index).bin"), TestPayload.sha256(count: 40000))
        }
    }

    func testCtrlCInABatchThenTheSameCommandFinishesTheJob() throws {
        // Two transfer, two wait at the gate behind them, two are never started.
        let sizes = [2_000_000, 2_000_000, 2_000_000, 2_000_000, 1000, 1000]
        let urls = sizes.indices.map { server.url("/file/q\($0).bin?size=\(sizes[$0])&chunk=20000&ms=20") }
        let command = ["-q", "-j", "2", "--report", "report.json"] + urls
        let (process, _, _) = try Afget.start(command, in: directory)
        waitUntil("two checkpoints") {
            (checkpointedBytes(directory.appendingPathComponent("q0.bin.afresume")) ?? 0) > 50_000
                && (checkpointedBytes(directory.appendingPathComponent("q1.bin.afresume")) ?? 0) > 50_000
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        // The report lists every item, those stopped and those never started.
        let stopped = try reportItems()
        let names = sizes.indices.map { "q\($0).bin" }
        XCTAssertEqual(stopped.map { $0["path"] as? String }, names)
        XCTAssertEqual(stopped.map { $0["id"] as? Int }, Array(0..<6))
        XCTAssertEqual(stopped.map { $0["outcome"] as? String }, Array(repeating: "interrupted", count: 6))
        let summary = try XCTUnwrap(try report()["summary"] as? [String: Any])
        XCTAssertEqual(summary["failed"] as? Int, 0)
        XCTAssertEqual(summary["interrupted"] as? Int, 6, "counted under their own key, not as failed")
        let errors = stopped.map { $0["error"] as? [String: Any] ?? [:] }
        XCTAssertEqual(errors.map { $0["exit"] as? Int }, Array(repeating: 130, count: 6))
        XCTAssertEqual(errors.map { $0["class"] as? String }, Array(repeating: "interrupted", count: 6))
        XCTAssertTrue((errors[0]["message"] as? String ?? "").hasSuffix("kept in q0.bin.afpart for the next run"), "\(errors[0])")
        XCTAssertEqual(errors[3]["message"] as? String, "stopped by a signal before any byte arrived")
        XCTAssertEqual(errors[5]["message"] as? String, "not started: the run was stopped by a signal")
        XCTAssertEqual(
            stopped.map { $0["http_status"] as? Int }, [200, 200, nil, nil, nil, nil], "the status a stopped item got")
        XCTAssertEqual(
            listing(directory).filter { !$0.hasSuffix(".afresume") }, ["q0.bin.afpart", "q1.bin.afpart", "report.json"],
            "an item stopped at the gate leaves no empty part file")

        let result = try Afget.run(command, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(listing(directory), names + ["report.json"])
        XCTAssertEqual(try reportItems().map { $0["outcome"] as? String }, Array(repeating: "downloaded", count: 6))
        for (name, size) in zip(names, sizes) {
            XCTAssertEqual(sha(name), TestPayload.sha256(count: size))
        }
        let continued = server.log.all.filter { $0.header("Range") != nil }
        XCTAssertEqual(continued.count, 2, "the two interrupted files continue, the others start")
    }

    /// An item stopped before its first byte leaves no empty part file behind; one with data
    /// keeps it for the next run.
    func testCtrlCLeavesNoEmptyPartFile() throws {
        let waiting = server.url("/silent/w.bin")
        let dripping = server.url("/drip/d.bin?size=2000000&chunk=20000&ms=20")
        let (process, _, _) = try Afget.start(["-q", "-j", "2", waiting, dripping], in: directory)
        waitUntil("both requested, one checkpointed") {
            server.log.all.contains { $0.uri.hasPrefix("/silent") }
                && (checkpointedBytes(directory.appendingPathComponent("d.bin.afresume")) ?? 0) > 20_000
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertEqual(listing(directory), ["d.bin.afpart", "d.bin.afresume"])
    }

    func testChecksumMismatchKeepsTheDataAndTheRightChecksumFinishesIt() throws {
        let url = server.url("/file/c.bin?size=7000")
        let wrong = String(repeating: "0", count: 64)
        let first = try Afget.run(["-q", "--checksum", "sha-256=\(wrong)", url], in: directory)
        XCTAssertEqual(first.status, 10)
        XCTAssertTrue(first.stderr.contains("checksum mismatch"), first.stderr)
        XCTAssertEqual(listing(directory), ["c.bin.afpart", "c.bin.afresume"])

        let second = try Afget.run(["-q", "--checksum", "sha256=\(TestPayload.sha256(count: 7000))", url], in: directory)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(sha("c.bin"), TestPayload.sha256(count: 7000))
        XCTAssertEqual(server.log.all.last?.header("Range"), "bytes=7000-", "nothing is downloaded again")
    }

    /// A re-run with checksums proves the files it skips too: a file changed since (or put
    /// there by something else) is reported, exit 10, and left as it is.
    func testAnExistingFileIsCheckedAgainstItsChecksum() throws {
        try writeList(
            """
            \(server.url("/file/a.bin?size=3000"))
              checksum=sha-256=\(TestPayload.sha256(count: 3000))
            \(server.url("/file/b.bin?size=4000"))
              checksum=sha-256=\(TestPayload.sha256(count: 4000))
            """)
        let first = try Afget.run(["-q", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(first.status, 0, first.stderr)
        try Data("changed".utf8).write(to: directory.appendingPathComponent("b.bin"))
        let requests = server.log.all.count

        let second = try Afget.run(["--progress", "line", "-i", "urls.txt"], in: directory)
        XCTAssertEqual(second.status, 10, second.stderr)
        XCTAssertTrue(second.stderr.contains("skipping a.bin: already exists and matches its sha-256 checksum"), second.stderr)
        let mismatch = second.stderrLines.filter { $0.hasPrefix("afget: b.bin: exists but does not match") }
        XCTAssertEqual(mismatch.count, 1, second.stderr)
        XCTAssertEqual(sha("a.bin"), TestPayload.sha256(count: 3000))
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("b.bin"), encoding: .utf8), "changed")
        XCTAssertEqual(server.log.all.count, requests, "nothing fetched")
    }

    func testBatchBarsOnATerminal() throws {
        let urls = (0..<3).map { "'" + server.url("/file/t\($0).bin?size=300000&chunk=30000&ms=50") + "'" }
        let (status, drawn) = try runInPseudoTerminal("\(Afget.binary.path) -j 3 " + urls.joined(separator: " "), in: directory)
        XCTAssertEqual(status, 0, drawn)
        XCTAssertTrue(drawn.contains("[0/3]"), drawn.debugDescription)
        // Redrawn in place: the cursor goes back up over the block's four lines (three bars and
        // the total), and nothing of it is left once the run is over.
        var terminal = TerminalScreen(columns: 80, rows: 24)
        terminal.feed(drawn)
        XCTAssertEqual(terminal.upwardMoves.max(), 3, drawn.debugDescription)
        XCTAssertEqual(
            (terminal.scrollback + terminal.screen).filter { $0.contains("% [") || $0.hasPrefix("[") }, [],
            drawn.debugDescription)
        XCTAssertTrue(drawn.contains("3 downloaded, 0 skipped, 0 failed"), drawn.debugDescription)
    }
}

/// `--fail-fast`: no new item starts after a failure.
final class FailFastTests: XCTestCase {
    func testNothingStartsAfterTheFirstFailure() throws {
        let server = try TestHTTPServer()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let urls = [server.url("/status/404")] + (0..<3).map { server.url("/file/n\($0).bin?size=10") }
        let result = try Afget.run(
            ["-q", "-j", "1", "--fail-fast", "--report", "../\(directory.lastPathComponent).json"] + urls,
            in: directory)
        XCTAssertEqual(result.status, 8)
        XCTAssertEqual(server.log.all.count, 1)
        XCTAssertEqual(listing(directory), [])
        let report = directory.deletingLastPathComponent().appendingPathComponent("\(directory.lastPathComponent).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let errors = (json["items"] as? [[String: Any]] ?? []).map { $0["error"] as? [String: Any] ?? [:] }
        XCTAssertEqual(
            errors.map { $0["class"] as? String }, ["http", "not started", "not started", "not started"],
            "items --fail-fast kept from starting are in the report")
        XCTAssertEqual(errors.map { $0["exit"] as? Int }, [8, 8, 8, 8])

        let keepsGoing = try Afget.run(["-q", "-j", "1"] + urls, in: directory)
        XCTAssertEqual(keepsGoing.status, 8)
        XCTAssertEqual(listing(directory), ["n0.bin", "n1.bin", "n2.bin"])
    }
}
