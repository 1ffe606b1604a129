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
            ["--fail", fileURL],
            saying: [
                "afget: --fail: afget exits 8 on an HTTP error status already, and never saves the error page as the file; "
                    + "leave it out"
            ])
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
