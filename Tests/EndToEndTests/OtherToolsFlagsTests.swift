import Foundation
import TestServer
import XCTest

/// What someone used to curl, wget or aria2c types, run as they would type it: one line saying
/// afget's way, exit 2, and nothing sent or written. afget's own meanings of the flags it shares
/// with them still work. And the help a usage error points to is the one `afget help` shows.
final class OtherToolsFlagsTests: ServerTestCase {
    private var fileURL: String { server.url("/file/f.bin?size=1000") }

    /// Runs a command line that must be refused before anything is sent: exit 2, the lines on
    /// stderr, nothing on stdout, no request, no file.
    private func assertRefused(
        _ arguments: [String], saying expected: [String], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try Afget.run(arguments, in: directory)
        XCTAssertEqual(result.status, 2, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderrLines, expected, file: file, line: line)
        XCTAssertEqual(result.stdout, Data(), file: file, line: line)
        XCTAssertEqual(server.log.all.count, 0, "nothing sent: \(arguments)", file: file, line: line)
        XCTAssertEqual(listing(directory), [], "nothing written: \(arguments)", file: file, line: line)
    }

    func testWgetsOutputFlagsPointToDashO() throws {
        try assertRefused(
            ["-O", "out.html", fileURL],
            saying: [
                "afget: -O out.html: wget's -O FILE is -o FILE in afget "
                    + "(afget's -O is curl's: name the file after the URL, as it does anyway)"
            ])
        try assertRefused(
            ["-qO-", fileURL], saying: ["afget: -qO-: wget's -O - (the body to standard output) is -o - in afget"])
    }

    /// aria2c's `-x 4` was read as a proxy at 0.0.0.4:1080, and the run failed with no word of a proxy.
    func testAria2csConnectionCountIsNotTakenForAProxy() throws {
        try assertRefused(
            ["-x", "4", fileURL],
            saying: ["afget: -x 4: aria2c's connections per server are -s 4 in afget (afget's -x is a proxy URL, as curl's)"])
    }

    /// The parser suggested --quiet for --tries and --dir for --fail and --data.
    func testFlagsAfgetLacksGetItsEquivalentNotTheNearestSpelling() throws {
        try assertRefused(
            ["--tries", "3", fileURL],
            saying: ["afget: --tries 3: wget counts every attempt, afget's --retry only those after the first: --retry 2"])
        try assertRefused(
            ["--data", "a=1", fileURL],
            saying: [
                "afget: --data: a request body is for afget request: afget request POST URL -d DATA (in a download, -d is --dir)"
            ])
        try assertRefused(
            ["-C", "-", fileURL],
            saying: [
                "afget: -C -: afget continues its own downloads by itself (the same command, run again, picks up where it "
                    + "stopped); -c also continues a file another tool left short, once the server confirms it"
            ])
    }

    /// `-O` (curl's), `-L`, `-c` (wget's), `-k`, `-s N` and `-x URL` are afget's too, and still mean that.
    func testAfgetsOwnMeaningsOfTheSharedFlagsStillWork() throws {
        let proxy = try ForwardProxy()
        let result = try Afget.run(["-q", "-OL", "-c", "-k", "-s", "2", "-x", proxy.url, fileURL], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(fileSize(directory.appendingPathComponent("f.bin")), 1000)
        XCTAssertEqual(proxy.seen.count, 1, "through the proxy -x names")
    }

    /// A pasted curl or wget line runs when every flag in it means what afget does anyway:
    /// `-f`, `-S`, `-nc` and `--create-dirs` said "Unknown option" or were refused.
    func testFlagsThatMeanAfgetsDefaultsAreTaken() throws {
        let result = try Afget.run(
            ["-q", "-fSL", "-nc", "--create-dirs", "--fail", "--show-error", "--no-clobber", "-o", "a/b/f.bin", fileURL],
            in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(fileSize(directory.appendingPathComponent("a/b/f.bin")), 1000)
        // -nc keeps what exists, as afget does anyway.
        let again = try Afget.run(["-nc", "-o", "a/b/f.bin", fileURL], in: directory)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.hasPrefix("afget: skipping a/b/f.bin"), again.stderr)
        XCTAssertEqual(server.log.all.count, 1, "the file that exists is not fetched again")
        // curl's long name for -J.
        let named = try Afget.run(
            ["-q", "--remote-header-name", server.url("/disposition/u.bin?cd=attachment%3B%20filename%3Dserved.txt&size=5")],
            in: directory)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(fileSize(directory.appendingPathComponent("served.txt")), 5)
    }

    /// wget's `-q --show-progress`: quiet, but with progress.
    func testShowProgressShowsItWithQuiet() throws {
        let quiet = try Afget.run(["-q", "-o", "quiet.bin", fileURL], in: directory)
        XCTAssertEqual(quiet.stderr, "")
        let shown = try Afget.run(["-q", "--show-progress", "-o", "shown.bin", fileURL], in: directory)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stderrLines.contains { $0.hasPrefix("shown.bin: done, ") }, shown.stderr)
    }

    /// curl's `-sS`: the S is afget's default, the s keeps its precise hint; `-nc` with an
    /// `--on-exists` that replaces files says both cannot be.
    func testAFlagThatMeansSomethingElseKeepsItsHint() throws {
        try assertRefused(
            ["-sS", fileURL],
            saying: ["afget: -s: curl's silent mode is -q in afget (afget's -s N splits a download over N connections)"])
        let result = try Afget.run(["-nc", "--on-exists", "overwrite", fileURL], in: directory)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(
            result.stderrLines,
            [
                "afget: -nc/--no-clobber keeps a file that exists and --on-exists overwrite replaces it: give one "
                    + "(see afget --help)"
            ])
    }

    /// `--foo` was offered `--dir`: only a close match is suggested.
    func testOnlyACloseMatchIsSuggested() throws {
        let far = try Afget.run(["--foo", fileURL], in: directory)
        XCTAssertEqual(far.status, 2)
        XCTAssertEqual(far.stderrLines, ["afget: Unknown option '--foo' (see afget --help)"])
        let near = try Afget.run(["--dri", "x", fileURL], in: directory)
        XCTAssertEqual(near.status, 2)
        XCTAssertEqual(near.stderrLines, ["afget: Unknown option '--dri'. Did you mean '--dir'? (see afget --help)"])
    }

    /// `afget help` listed only the commands; `afget --help`, which every usage error points to,
    /// shows the download options too. Both are that page now.
    func testAfgetHelpIsTheSamePageAsDashDashHelp() throws {
        let help = try Afget.run(["help"], in: directory)
        let dashes = try Afget.run(["--help"], in: directory)
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stderr, "")
        XCTAssertEqual(help.stdoutText, dashes.stdoutText)
        XCTAssertTrue(help.stdoutText.contains("--on-exists <mode>"), help.stdoutText)
        XCTAssertTrue(help.stdoutText.contains("SUBCOMMANDS:"), help.stdoutText)
    }

    /// A usage error of `afget request` points to the page that lists request's options.
    func testAUsageErrorPointsToTheHelpOfItsCommand() throws {
        let result = try Afget.run(["request", "--acept-status", "200", server.url("/echo")], in: directory)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix(" (see afget request --help)\n"), result.stderr)
        let help = try Afget.run(["request", "--help"], in: directory)
        XCTAssertTrue(help.stdoutText.contains("--accept-status"), help.stdoutText)
    }
}
