import Foundation
import XCTest

/// A config file under $XDG_CONFIG_HOME/afget, `--config FILE` and `--no-config`, checked on
/// what reached the server and what afget printed.
final class ConfigFileTests: ServerTestCase {
    private var configHome: URL { directory.appendingPathComponent("config-home") }
    private var environment: [String: String] { ["XDG_CONFIG_HOME": configHome.path] }

    private func writeConfig(_ text: String, at path: URL? = nil) throws -> URL {
        let file = path ?? configHome.appendingPathComponent("afget/config")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private func echoed(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    func testTheConfigFileIsReadBeforeTheCommandLineWhichWins() throws {
        _ = try writeConfig(
            """
            # options for every run
            header = X-From-Config: yes
              user-agent = "Config Agent/1.0"
            --jobs 8

            quiet
            """)
        let configured = try Afget.run(["-o", "one.txt", server.url("/echo-headers")], in: directory, environment: environment)
        XCTAssertEqual(configured.status, 0, configured.stderr)
        XCTAssertEqual(configured.stderr, "", "quiet came from the file")
        XCTAssertTrue(try echoed("one.txt").contains("X-From-Config: yes"))
        XCTAssertTrue(try echoed("one.txt").contains("User-Agent: Config Agent/1.0"))

        let typed = try Afget.run(
            ["-A", "Typed/2", "-H", "X-Typed: 1", "-o", "two.txt", server.url("/echo-headers")], in: directory,
            environment: environment)
        XCTAssertEqual(typed.status, 0, typed.stderr)
        let two = try echoed("two.txt")
        XCTAssertTrue(two.contains("User-Agent: Typed/2") && !two.contains("Config Agent"), two)
        XCTAssertTrue(two.contains("X-From-Config: yes") && two.contains("X-Typed: 1"), "headers add up: \(two)")

        // An option only downloads take (jobs) is passed over when running a request.
        let request = try Afget.run(["request", server.url("/echo-headers")], in: directory, environment: environment)
        XCTAssertEqual(request.status, 0, request.stderr)
        XCTAssertTrue(request.stdoutText.contains("X-From-Config: yes"), request.stdoutText)

        let ignored = try Afget.run(
            ["--no-config", "--progress", "line", "-o", "three.txt", server.url("/echo-headers")], in: directory,
            environment: environment)
        XCTAssertEqual(ignored.status, 0, ignored.stderr)
        XCTAssertFalse(try echoed("three.txt").contains("X-From-Config"))
        XCTAssertFalse(ignored.stderr.isEmpty, "not quiet without the file")
    }

    /// A choice the file makes is the command line's to change: its option, or an alternative
    /// to it, typed replaces the file's line.
    func testTheCommandLinesChoiceReplacesTheFiles() throws {
        _ = try writeConfig("quiet\npretty\nno-restart\njobs = 1\ndir = elsewhere\nno-follow\n")
        let progress = try Afget.run(
            ["--progress", "line", "--restart", "-j", "3", "-L", "-o", "a.bin", server.url("/file/a.bin?size=10")],
            in: directory, environment: environment)
        XCTAssertEqual(progress.status, 0, progress.stderr)
        XCTAssertTrue(progress.stderr.contains("a.bin: done"), "--progress line over quiet: \(progress.stderr)")
        let raw = try Afget.run(["request", "--raw", server.url("/echo")], in: directory, environment: environment)
        XCTAssertEqual(raw.status, 0, raw.stderr)
        XCTAssertTrue(raw.stdoutText.hasPrefix("{\""), "--raw over pretty: \(raw.stdoutText)")
    }

    /// wget's `-nc` typed replaces the file's `on-exists`, as `--on-exists` typed would: the
    /// file that exists is kept, no conflict between the two.
    func testNoClobberTypedReplacesTheFilesOnExists() throws {
        _ = try writeConfig("on-exists = overwrite\n")
        try Data("kept".utf8).write(to: directory.appendingPathComponent("a.bin"))
        for flag in ["-nc", "--no-clobber"] {
            let result = try Afget.run([flag, server.url("/file/a.bin?size=10")], in: directory, environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("afget: skipping a.bin"), result.stderr)
        }
        XCTAssertEqual(try echoed("a.bin"), "kept")
    }

    /// A secret on a line that is not an option, or in a header that is not one, is not repeated.
    func testARefusedLineIsNamedWithoutItsSecret() throws {
        let cases: [(text: String, says: String)] = [
            ("-u alice:s3cret\n", "\"-u\" is not an option name (write name = value)"),
            ("header = Authorization Bearer s3cret\n", "header \"Authorization…\" has no colon; use \"Name: value\""),
            ("header = X-Api-Key=s3cret\n", "header \"X-Api-Key…\" has no colon; use \"Name: value\""),
            ("-uann:s3cret\n", "\"-uann\" is not an option name (write name = value)"),
        ]
        for (text, says) in cases {
            let file = try writeConfig(text)
            let result = try Afget.run([server.url("/file/a.bin?size=10")], in: directory, environment: environment)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertEqual(result.stderr, "afget: config file \(file.path):1: \(says)\n")
        }
        // The command line alone is wrong too (no URL): the file's bad line is still named.
        let file = try writeConfig("jobs = 8x\n")
        let both = try Afget.run([], in: directory, environment: environment)
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.hasPrefix("afget: config file \(file.path):1: "), both.stderr)
        XCTAssertTrue(server.log.all.isEmpty, "nothing was sent")
    }

    func testConfigChoosesAnotherFile() throws {
        _ = try writeConfig("header = X-Default: 1\n")
        let chosen = try writeConfig("header = X-Chosen: 1\n", at: directory.appendingPathComponent("team.conf"))
        let result = try Afget.run(
            ["-q", "--config", chosen.path, "-o", "echo.txt", server.url("/echo-headers")], in: directory,
            environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let echo = try echoed("echo.txt")
        XCTAssertTrue(echo.contains("X-Chosen: 1") && !echo.contains("X-Default"), echo)

        let missing = try Afget.run(["--config", "absent.conf", server.url("/echo-headers")], in: directory)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "afget: config file absent.conf: cannot be read\n")
    }

    func testALineItCannotUseExits2NamingFileAndLine() throws {
        let cases: [(text: String, line: Int, says: String)] = [
            ("quiet\njobs = many\n", 2, "'many' is invalid for '--jobs"),
            ("# team defaults\nretries = 3\n", 2, "afget has no option --retries"),
            ("quiet = yes\n", 1, "--quiet takes no value"),
            ("jobs\n", 1, "--jobs needs a value"),
            ("jobs = 0\n", 1, "--jobs must be 1 or more"),
            ("-j 8\n", 1, "is not an option"),
        ]
        for (text, line, says) in cases {
            let file = try writeConfig(text)
            let result = try Afget.run([server.url("/file/a.bin?size=100")], in: directory, environment: environment)
            XCTAssertEqual(result.status, 2, "\(text): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("afget: config file \(file.path):\(line): "), result.stderr)
            XCTAssertTrue(result.stderr.contains(says), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("a.bin").path))
        }
        XCTAssertTrue(server.log.all.isEmpty, "nothing was sent")
    }
}
