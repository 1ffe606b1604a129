import Foundation
import TestServer
import XCTest

/// The bars as a person sees them in tmux at 120, 80, 50 and 38 columns, one session per
/// width running at the same time, the panes captured while afget runs and after: rows line
/// up (the name column padded, the bar and each figure at the same column on every row), a
/// row keeps its shape as its speed and ETA change, nothing wraps, and no frame is left on
/// the screen or in the scrollback once the run is over.
final class TmuxBarTests: ServerTestCase {
    private var tmux: Tmux!
    private let widths = [120, 80, 50, 38]

    override func setUpWithError() throws {
        try super.setUpWithError()
        tmux = Tmux()
    }

    override func tearDownWithError() throws {
        tmux.kill()
        try super.tearDownWithError()
    }

    /// One download whose speed falls from MiB/s to under 100 KiB/s (its first 300 KB at
    /// once, then dripped): at every width the row keeps its shape from the first frame to
    /// the last.
    func testOneTransferHoldsStillAsItsSpeedFalls() throws {
        let url = server.url("/file/ubuntu-24.04-desktop-amd64.iso?size=720000&slowfrom=300000&chunk=6000&ms=100")
        let runs = try runAtEveryWidth(rows: 10) { _ in shellWord(url) }
        for (columns, run) in runs {
            XCTAssertEqual(run.status, 0, "\(columns): \(run.final)")
            let rows = run.frames.flatMap { $0.filter(isItemRow) }
            XCTAssertGreaterThanOrEqual(rows.count, 3, "\(columns): \(run.frames)")
            let speeds = rows.compactMap(speed)
            XCTAssertTrue(speeds.contains { $0 >= 100 * 1024 }, "\(columns): seen fast: \(rows)")
            XCTAssertTrue(speeds.contains { $0 < 100 * 1024 }, "\(columns): seen slow: \(rows)")
            XCTAssertEqual(Set(rows.map(shape)).count, 1, "\(columns): one shape in every frame: \(rows)")
            assertFits(run, columns: columns)
            assertNothingLeft(run, columns: columns)
            let joined = try tmux.capture("w\(columns)", history: true, joined: true)
            XCTAssertTrue(joined.contains { $0.hasPrefix("ubuntu-24.04-desktop-amd64.iso: done, 703.1 KiB") }, "\(joined)")
        }
    }

    /// Eight downloads with names of different lengths (one of wide characters), each at its
    /// own speed, in a window too short to keep every line printed above the bars: every
    /// frame's rows line up, a row keeps its shape while the same rows are shown, and after the
    /// run the screen and the scrollback hold the done lines and the summary, no frame.
    func testEightTransfersLineUp() throws {
        let names = [
            "a.bin", "b-1.iso", "photos-2026.zip", "quarterly-report-part-03.pdf", "c.tar.gz",
            "%E6%95%B0%E6%8D%AE-2026.bin", "notes.txt", "d",
        ]
        let runs = try runAtEveryWidth(rows: 14) { columns in
            names.enumerated().map { index, name in
                // 20 KB/s to 320 KB/s: speeds of every width side by side.
                let chunk = 2000 * (1 << (index % 5))
                return shellWord(server.url("/file/\(columns)/\(name)?size=\(chunk * 40)&chunk=\(chunk)&ms=100"))
            }.joined(separator: " ")
        } arguments: { _ in
            "-j 8"
        }
        for (columns, run) in runs {
            XCTAssertEqual(run.status, 0, "\(columns): \(run.final)")
            var shapes: [[String]: Set<Shape>] = [:]
            for frame in run.frames {
                let rows = frame.filter(isItemRow)
                XCTAssertEqual(Set(rows.map(shape)).count, min(1, rows.count), "\(columns): lined up: \(frame)")
                shapes[rows.map(name).sorted(), default: []].formUnion(rows.map(shape))
            }
            if columns >= 40 {
                XCTAssertTrue(shapes.keys.contains { $0.count >= 6 }, "\(columns): the rows were seen: \(run.frames)")
            }
            for (rowNames, seen) in shapes {
                XCTAssertLessThanOrEqual(seen.count, 1, "\(columns): the same rows, the same shape: \(rowNames) \(seen)")
            }
            assertFits(run, columns: columns)
            assertNothingLeft(run, columns: columns)
            let joined = try tmux.capture("w\(columns)", history: true, joined: true)
            XCTAssertEqual(joined.filter { $0.contains(": done, ") }.count, 8, "\(columns): \(joined)")
            XCTAssertTrue(joined.contains { $0.contains("8 downloaded, 0 skipped, 0 failed") }, "\(columns): \(joined)")
        }
    }

    /// A recursive download from nginx's listing, at 256 KB/s a connection, with one transfer
    /// and with eight: the files' rows line up and fit at every width, no frame is left, each
    /// file and the listing say done once, and the summary counts them and the page converted.
    func testACrawlsBarsLineUpWithOneAndEightTransfers() throws {
        let nginx = try NginxServer(autoindex: true)
        for (jobs, files) in [(1, 1), (8, 8)] {
            for index in 0..<files {
                let file = nginx.root.appendingPathComponent("tree\(jobs)/file-\(index).bin")
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(repeating: UInt8(index), count: 1_000_000).write(to: file)
            }
            let runs = try runAtEveryWidth(rows: 14) { _ in
                shellWord(nginx.url("/slower/tree\(jobs)/"))
            } arguments: { _ in
                "-r -np -nH -j \(jobs) --convert-links -d out"
            }
            for (columns, run) in runs {
                XCTAssertEqual(run.status, 0, "\(columns) -j \(jobs): \(run.final)")
                // At 38 columns a name as long as `out/slower/tree8/file-0.bin` leaves no room
                // for a row: the totals row alone shows, as for a list's long names.
                if columns >= 40 {
                    XCTAssertTrue(run.frames.contains { $0.contains(where: isItemRow) }, "\(columns): bars seen: \(run.frames)")
                }
                XCTAssertTrue(
                    run.frames.contains { $0.contains { $0.hasPrefix("[") && $0.hasSuffix("/s") } },
                    "\(columns): the totals row: \(run.frames)")
                for frame in run.frames {
                    let rows = frame.filter(isItemRow)
                    XCTAssertEqual(Set(rows.map(shape)).count, min(1, rows.count), "\(columns) -j \(jobs): lined up: \(frame)")
                }
                // The missing robots.txt's skip line (`afget: skipping out/robots.txt: not on the
                // server (HTTP 404)`) is longer than 50 columns and is not shortened: it may wrap.
                assertFits(run, columns: columns, causesMayWrap: true)
                assertNothingLeft(run, columns: columns)
                let joined = try tmux.capture("w\(columns)", history: true, joined: true)
                XCTAssertEqual(joined.filter { $0.contains(": done, ") }.count, files + 1, "\(columns): \(joined)")
                XCTAssertTrue(
                    joined.contains { $0.contains("\(files + 1) downloaded, 1 skipped, 0 failed") }, "\(columns): \(joined)")
                XCTAssertTrue(joined.contains { $0.contains("links converted in 1 page") }, "\(columns): \(joined)")
            }
            tmux.kill()
            tmux = Tmux()
            try FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
    }

    /// A multipart upload to moto's S3 server with one part at a time and with eight, at
    /// 4 MiB/s: the parts are summed into one row for the file, which lines up and keeps its
    /// shape at every width; no frame is left, the file says done once, and the object read back
    /// is the file.
    func testAMultipartUploadsRowHoldsStillWithOneAndEightParts() throws {
        let moto = try MotoServer()
        try moto.createBucket("bars")
        let random = try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/urandom"))
        let data = try XCTUnwrap(try random.read(upToCount: 21_000_000))
        try random.close()
        // In each width's directory, so that its row names the file as given.
        for columns in widths {
            let file = directory.appendingPathComponent("w\(columns)/photos-2026.tar")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        let environment = moto.signingEnvironment.merging(
            ["XDG_STATE_HOME": directory.appendingPathComponent("state").path]) { $1 }
        for (parts, rate) in [(1, "4M"), (8, "1M")] {
            let runs = try runAtEveryWidth(rows: 10, environment: environment) { columns in
                "photos-2026.tar s3://bars/w\(columns)-s\(parts).tar"
            } arguments: { _ in
                "upload --s3-endpoint \(moto.endpoint) --multipart-threshold 10M --part-size 5M -s \(parts) --limit-rate \(rate)"
            }
            for (columns, run) in runs {
                XCTAssertEqual(run.status, 0, "\(columns) -s \(parts): \(run.final)")
                let rows = run.frames.flatMap { $0.filter(isItemRow) }
                XCTAssertGreaterThanOrEqual(rows.count, 2, "\(columns) -s \(parts): \(run.frames)")
                XCTAssertEqual(Set(rows.map(shape)).count, 1, "\(columns) -s \(parts): one shape: \(rows)")
                if columns >= 120 {
                    XCTAssertEqual(Set(rows.map(name)), ["photos-2026.tar"], "\(columns) -s \(parts): one row: \(rows)")
                }
                assertFits(run, columns: columns)
                assertNothingLeft(run, columns: columns)
                let joined = try tmux.capture("w\(columns)", history: true, joined: true)
                XCTAssertEqual(
                    joined.filter { $0.hasPrefix("photos-2026.tar: done, 20.0 MiB") }.count, 1,
                    "\(columns) -s \(parts): \(joined)")
                XCTAssertEqual(try moto.object("bars", "w\(columns)-s\(parts).tar").sha256, sha256Hex(data))
            }
            tmux.kill()
            tmux = Tmux()
        }
    }

    /// Items continuing where an earlier run stopped: at 120 and 38 columns each says so on
    /// one line, its name whole: the URL is shortened in its middle, then left out, then the
    /// sizes.
    func testAContinueNoticeIsOneLine() throws {
        let runs = try runAtEveryWidth(rows: 12, only: [120, 38]) { columns in
            let urls = (0..<3).map { index in
                server.url("/flaky/w\(columns)/quarterly-\(index).pdf?size=2400000&fail=1&mode=drop&chunk=60000&ms=100")
            }
            let first = try Afget.run(["-q", "--retry", "0"] + urls, in: directory.appendingPathComponent("w\(columns)"))
            XCTAssertEqual(first.status, 4, first.stderr)
            return urls.map(shellWord).joined(separator: " ")
        } arguments: { _ in
            "-j 3"
        }
        for (columns, run) in runs {
            XCTAssertEqual(run.status, 0, "\(columns): \(run.final)")
            let joined = try tmux.capture("w\(columns)", history: true, joined: true)
            let notices = joined.filter { $0.contains(": continuing at") }
            XCTAssertEqual(notices.count, 3, "\(columns): \(joined)")
            for notice in notices {
                XCTAssertNotNil(
                    notice.range(of: #"^quarterly-\d\.pdf: continuing at 50%"#, options: .regularExpression),
                    "\(columns): the name whole: \(notice)")
                XCTAssertLessThanOrEqual(TerminalScreen.columns(of: notice), columns - 1, "\(columns): one line: \(notice)")
            }
            if columns >= 120 {
                XCTAssertTrue(notices.allSatisfy { $0.contains(" from http://127.0.0.1:") && $0.contains("…") }, "\(notices)")
            }
            assertNothingLeft(run, columns: columns)
        }
    }

    /// A split download whose mirror is down: at every width the notice dropping it is said
    /// once, above the bar, naming the item and the cause, and the run ends with the file done
    /// and no frame left.
    func testADroppedMirrorIsSaidOnceAboveTheBar() throws {
        let dead = "http://127.0.0.1:\(try freePort())"
        let runs = try runAtEveryWidth(rows: 12) { columns in
            [server.url("/file/w\(columns)/image.iso?size=4000000&chunk=100000&ms=50")].map(shellWord).joined()
        } arguments: { columns in
            "-s 4 --min-split-size 256K --retry 0 --mirror \(shellWord("\(dead)/w\(columns)/image.iso"))"
        }
        for (columns, run) in runs {
            XCTAssertEqual(run.status, 0, "\(columns): \(run.final)")
            let joined = try tmux.capture("w\(columns)", history: true, joined: true)
            let notices = joined.filter { $0.contains("dropping source") }
            XCTAssertEqual(notices.count, 1, "\(columns): \(joined)")
            XCTAssertTrue(notices.allSatisfy { $0.hasPrefix("afget: image.iso: dropping source ") }, "\(columns): \(notices)")
            XCTAssertTrue(joined.contains { $0.hasPrefix("image.iso: done, 3.8 MiB") }, "\(columns): \(joined)")
            assertNothingLeft(run, columns: columns)
        }
    }

    /// Eight files at once from an FTP server that takes two sessions per client (one server
    /// per width): the limit is said once above the bars at every width, every file is done,
    /// no refusal is retried, and no frame is left.
    func testAHostThatTakesTwoConnectionsIsSaidOnceAboveTheBarsOfEightFiles() throws {
        var servers: [Int: PyFTPServer] = [:]
        for columns in widths {
            let ftp = try PyFTPServer(sessionsPerClient: 2)
            for index in 0..<8 {
                _ = try writeRandomFile(
                    ftp.root.appendingPathComponent("f\(index).bin"), count: 300_000, modified: Date(timeIntervalSince1970: 1e9))
            }
            servers[columns] = ftp
        }
        let runs = try runAtEveryWidth(rows: 16) { columns in
            (0..<8).map { shellWord(servers[columns]!.url("f\($0).bin")) }.joined(separator: " ")
        } arguments: { _ in
            "-j 8 --limit-rate 1M"
        }
        for (columns, run) in runs {
            XCTAssertEqual(run.status, 0, "\(columns): \(run.final)")
            let joined = try tmux.capture("w\(columns)", history: true, joined: true)
            let notices = joined.filter { $0.contains("takes 2 connections at once; going on with 2") }
            XCTAssertEqual(notices.count, 1, "\(columns): \(joined)")
            XCTAssertTrue(notices.allSatisfy { $0.hasPrefix("afget: ftp://") }, "\(columns): \(notices)")
            XCTAssertFalse(joined.contains { $0.contains("retrying") }, "\(columns): \(joined)")
            for index in 0..<8 {
                XCTAssertTrue(joined.contains { $0.hasPrefix("f\(index).bin: done") }, "\(columns): f\(index) \(joined)")
            }
            assertNothingLeft(run, columns: columns)
        }
    }

    /// A Metalink file's piece 0 corrupted by its first URL, with one file and with eight: each
    /// file's source is dropped for its piece in one line above the bars, at every width, and
    /// every file is done with no frame left.
    func testABadPieceIsSaidOnceAboveTheBarOfOneFile() throws {
        try assertABadPieceIsSaidOnce(files: 1)
    }

    func testABadPieceIsSaidOnceAboveTheBarsOfEightFiles() throws {
        try assertABadPieceIsSaidOnce(files: 8)
    }

    /// A file answered 503 once is retried, with one line above its bar naming it (its URL,
    /// shortened in the middle) and the cause, whole; beside seven more, one answered 404 fails
    /// with one line: at every width each line is said once, the others are done, and no frame
    /// is left. The cause and the wait ("HTTP 503 Service Unavailable; retrying in 0.0 s") are
    /// longer than a 50-column row can hold beside "afget: " and a URL: that line wraps there.
    func testARetryIsSaidOnceAboveTheBarOfOneFile() throws {
        try assertRetriesAndFailuresAreSaidOnce(files: 1)
    }

    func testARetryAndAFailureAreSaidOnceAboveTheBarsOfEightFiles() throws {
        try assertRetriesAndFailuresAreSaidOnce(files: 8)
    }

    private func assertRetriesAndFailuresAreSaidOnce(files count: Int) throws {
        let runs = try runAtEveryWidth(rows: 16) { columns in
            (0..<count).map { index in
                let path =
                    switch index {
                    case 0: "/flaky/w\(columns)/n\(count)/busy.bin?size=400000&fail=1&mode=503&chunk=40000&ms=50"
                    case 1: "/status/404"
                    default: "/file/w\(columns)/n\(count)/f\(index).bin?size=400000&chunk=40000&ms=50"
                    }
                return shellWord(server.url(path))
            }.joined(separator: " ")
        } arguments: { _ in
            "-j 8 --retry 2 --retry-delay 0"
        }
        for (columns, run) in runs {
            XCTAssertEqual(run.status, count == 1 ? 0 : 8, "\(columns): \(run.final)")
            let joined = try tmux.capture("w\(columns)", history: true, joined: true)
            let retries = joined.filter { $0.hasPrefix("afget: ") && $0.contains("retrying in") }
            XCTAssertEqual(retries.count, 1, "\(columns): \(joined)")
            XCTAssertTrue(
                retries.allSatisfy {
                    $0.hasPrefix("afget: http:") && $0.contains("ms=50: HTTP 503 Service Unavailable; retrying in 0.0 s")
                },
                "\(columns): the item and the cause: \(retries)")
            XCTAssertEqual(joined.filter { $0.contains(": done, ") }.count, count == 1 ? 1 : 7, "\(columns): \(joined)")
            if count > 1 {
                let failures = joined.filter { $0.hasPrefix("afget: ") && $0.hasSuffix(": HTTP 404 Not Found") }
                XCTAssertEqual(failures.count, 1, "\(columns): \(joined)")
                XCTAssertTrue(joined.contains { $0.contains("7 downloaded, 0 skipped, 1 failed") }, "\(columns): \(joined)")
            }
            assertFits(run, columns: columns, causesMayWrap: columns < 80)
            assertNothingLeft(run, columns: columns)
        }
    }

    private func assertABadPieceIsSaidOnce(files count: Int) throws {
        let size = 1_000_000
        let pieces = stride(from: 0, to: size, by: 262_144).map { start in
            "<hash>\(sha256Hex(TestPayload.bytes(start..<min(size, start + 262_144))))</hash>"
        }
        let runs = try runAtEveryWidth(rows: 16) { columns in
            let files = (0..<count).map { index in
                let path = "/file/w\(columns)/n\(count)/f\(index).bin?size=\(size)&chunk=100000&ms=20"
                let corrupt = server.url(path + "&flip=100000").replacingOccurrences(of: "&", with: "&amp;")
                let good = server.url(path + "&v=0").replacingOccurrences(of: "&", with: "&amp;")
                return """
                    <file name="f\(index).bin"><size>\(size)</size>
                    <pieces length="262144" type="sha-256">\(pieces.joined())</pieces>
                    <url priority="1">\(corrupt)</url><url priority="2">\(good)</url></file>
                    """
            }
            try """
            <?xml version="1.0"?><metalink xmlns="urn:ietf:params:xml:ns:metalink">\(files.joined())</metalink>
            """.write(
                to: directory.appendingPathComponent("w\(columns)/n\(count).meta4"), atomically: true, encoding: .utf8)
            return ""
        } arguments: { _ in
            "-j 8 --metalink n\(count).meta4"
        }
        for (columns, run) in runs {
            XCTAssertEqual(run.status, 0, "\(count) × \(columns): \(run.final)")
            let joined = try tmux.capture("w\(columns)", history: true, joined: true)
            for index in 0..<count {
                let notices = joined.filter { $0.hasPrefix("afget: f\(index).bin: dropping source ") }
                XCTAssertEqual(notices.count, 1, "\(count) × \(columns): \(joined)")
                XCTAssertTrue(
                    notices.allSatisfy { $0.contains(" (piece 0 did not match its sha-256 hash)") },
                    "\(count) × \(columns): \(notices)")
                XCTAssertTrue(
                    joined.contains { $0.hasPrefix("f\(index).bin: done, 976.6 KiB") }, "\(count) × \(columns): \(joined)")
                XCTAssertEqual(
                    sha256Hex(ofFile: directory.appendingPathComponent("w\(columns)/f\(index).bin").path),
                    TestPayload.sha256(count: size))
            }
            assertNothingLeft(run, columns: columns)
        }
    }

    /// Ctrl-C during a download whose row fills the line: the terminal echoes `^C` where the
    /// cursor is, after the row's last figure. With a column to spare beyond the cursor's the
    /// echo stays on the row and the interruption's lines are written over it; at every width
    /// no frame is left, marked with a `^` or not, and no `C` wraps onto a line of its own.
    func testCtrlCsEchoStaysInTheFreeColumn() throws {
        let name = "ubuntu-24.04-desktop-amd64-with-a-name-as-long-as-a-mirror-gives-it.iso"
        for columns in widths {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("w\(columns)"), withIntermediateDirectories: true)
            let url = server.url("/file/w\(columns)/\(name)?size=50000000&chunk=20000&ms=100")
            try tmux.start(
                "\(shellWord(Afget.binary.path)) \(shellWord(url))", session: "w\(columns)", columns: columns, rows: 10,
                in: directory.appendingPathComponent("w\(columns)"), environment: ["NO_COLOR": "1"])
        }
        for columns in widths {
            let session = "w\(columns)"
            try waitUntil(timeout: 30, "\(columns): a bar on the screen") {
                try tmux.capture(session).contains(where: isItemRow)
            }
            // Below 40 columns the row is a short line of figures, not the width.
            if columns >= 40 {
                let row = try XCTUnwrap(try tmux.capture(session).first(where: isItemRow))
                XCTAssertEqual(TerminalScreen.columns(of: row), columns - 2, "\(columns): the row fills the line: \(row)")
            }
            try tmux.sendKeys(session, "C-c")
        }
        for columns in widths {
            let session = "w\(columns)"
            try waitUntil(timeout: 30, "\(columns): afget to end") { try tmux.exitStatus(session) != nil }
            XCTAssertEqual(try tmux.exitStatus(session), 130)
            let final = try tmux.capture(session, history: true)
            XCTAssertEqual(final.filter(isItemRow), [], "\(columns): a frame left behind: \(final)")
            XCTAssertFalse(final.contains { $0.hasSuffix("^") || $0 == "C" || $0.hasPrefix("C") }, "\(columns): \(final)")
            XCTAssertTrue(final.contains { $0.hasPrefix("afget: interrupted") }, "\(columns): \(final)")
        }
    }

    // MARK: Running

    /// What one session showed: its screens while afget ran (each one seen twice in a row, so
    /// never a frame tmux had only part of), the screen and scrollback it left, and afget's
    /// exit status.
    private struct Run {
        var frames: [[String]] = []
        var lastLook: [String] = []
        var final: [String] = []
        var status: Int32 = -1
    }

    /// Runs afget in a session per width at once (`only` widths, else every one), each in a
    /// directory of its own (`wCOLUMNS`) with the URLs `urls` gives for its width and the
    /// options `arguments` gives, with `environment` beside its own, capturing every pane until
    /// each run has ended. The session at 80 columns has colour, the others NO_COLOR: the bar's
    /// colour must take no columns.
    private func runAtEveryWidth(
        rows: Int, only: [Int]? = nil, environment: [String: String] = [:], _ urls: (Int) throws -> String,
        arguments: (Int) -> String = { _ in "" }
    ) throws -> [(Int, Run)] {
        let chosen = only ?? widths
        for columns in chosen {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("w\(columns)"), withIntermediateDirectories: true)
        }
        for columns in chosen {
            let command = "\(shellWord(Afget.binary.path)) \(arguments(columns)) \(try urls(columns))"
            try tmux.start(
                command, session: "w\(columns)", columns: columns, rows: rows,
                in: directory.appendingPathComponent("w\(columns)"),
                environment: environment.merging(columns == 80 ? [:] : ["NO_COLOR": "1"]) { $1 })
        }
        var runs = Dictionary(uniqueKeysWithValues: chosen.map { ($0, Run()) })
        try waitUntil(timeout: 60, "every run to end") {
            for columns in chosen where runs[columns]?.status == -1 {
                let session = "w\(columns)"
                // The status first: a capture taken after it is of the run's last screen.
                let status = try tmux.exitStatus(session)
                let screen = try tmux.capture(session)
                if let status {
                    runs[columns]?.status = status
                    runs[columns]?.final = try tmux.capture(session, history: true)
                } else if screen == runs[columns]?.lastLook, screen != runs[columns]?.frames.last {
                    runs[columns]?.frames.append(screen)
                }
                runs[columns]?.lastLook = screen
            }
            return runs.values.allSatisfy { $0.status != -1 }
        }
        return chosen.map { ($0, runs[$0]!) }
    }

    // MARK: What a person looks at

    /// A line of the live block for one item: a percent, then a speed.
    private func isItemRow(_ line: String) -> Bool {
        !line.contains(": ") && !line.hasPrefix("[")
            && line.range(of: #"\d%.*/s"#, options: .regularExpression) != nil
    }

    /// Where a row's parts are, in columns: what a person sees staying put or moving.
    private struct Shape: Hashable, CustomStringConvertible {
        var percentEnd: Int
        var barStart: Int?
        var barEnd: Int?
        var speedEnd: Int
        var width: Int
        var description: String { "%\(percentEnd) [\(barStart ?? -1) ]\(barEnd ?? -1) /s\(speedEnd) |\(width)" }
    }

    private func shape(_ row: String) -> Shape {
        func column(_ index: String.Index) -> Int { TerminalScreen.columns(of: String(row[..<index])) }
        let percent = row.range(of: #"\d%"#, options: .regularExpression)!
        return Shape(
            percentEnd: column(percent.upperBound),
            barStart: row.range(of: "% [").map { column($0.upperBound) },
            barEnd: row.range(of: "]").map { column($0.lowerBound) },
            speedEnd: column(row.range(of: "/s", options: .backwards)!.upperBound),
            width: TerminalScreen.columns(of: row))
    }

    /// The name a row starts with, as shown.
    private func name(_ row: String) -> String {
        let percent = row.range(of: #"\d+%"#, options: .regularExpression)!
        return row[..<percent.lowerBound].trimmingCharacters(in: .whitespaces)
    }

    /// Bytes per second a row shows.
    private func speed(_ row: String) -> Double? {
        guard let match = row.range(of: #"[0-9.]+ (B|KiB|MiB|GiB)/s"#, options: .regularExpression) else { return nil }
        let parts = row[match].split(separator: " ")
        let scales: [String: Double] = ["B/s": 1, "KiB/s": 1024, "MiB/s": 1_048_576, "GiB/s": 1_073_741_824]
        let scale = scales[String(parts[1])] ?? 0
        return Double(parts[0]).map { $0 * scale }
    }

    /// No line of the live block reaches the window's last column, and at 50 columns and wider
    /// no line printed above the bars wrapped (the summary and its failures, said last under
    /// them, may; so may a line at 38 columns whose item's name alone nearly fills it, and, with
    /// `causesMayWrap`, one whose cause alone is longer than the row, never cut).
    private func assertFits(
        _ run: Run, columns: Int, causesMayWrap: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) {
        for frame in run.frames {
            for text in frame where isItemRow(text) || text.hasPrefix("[") {
                XCTAssertLessThanOrEqual(
                    TerminalScreen.columns(of: text), columns - 1, "\(columns): \(text)", file: file, line: line)
            }
        }
        guard columns >= 50, !causesMayWrap, let joined = try? tmux.capture("w\(columns)", history: true, joined: true)
        else { return }
        for text in joined where !text.contains(" downloaded, ") && !text.hasPrefix("  ") {
            XCTAssertLessThanOrEqual(
                TerminalScreen.columns(of: text), columns - 1, "\(columns): wrapped: \(text)", file: file, line: line)
        }
    }

    /// After the run neither the screen nor the scrollback holds a line of the live block.
    private func assertNothingLeft(_ run: Run, columns: Int, file: StaticString = #filePath, line: UInt = #line) {
        let left = run.final.filter {
            isItemRow($0) || $0.range(of: #"^\[\d+(/\d+| done)\]"#, options: .regularExpression) != nil
        }
        XCTAssertEqual(left, [], "\(columns): a frame left behind: \(run.final)", file: file, line: line)
    }
}

/// `text` as one shell word, in single quotes.
private func shellWord(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
