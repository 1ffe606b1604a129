@testable import AFGetCLI
import ArgumentParser
import XCTest

/// curl's, wget's and aria2c's flags on an afget command line: each answered with afget's way
/// to say it, and afget's own command lines left alone.
final class PeerHabitsTests: XCTestCase {
    private let url = "https://h/f.iso"

    private func lines(_ arguments: [String]) -> [String] {
        PeerHabits.lines(for: arguments)
    }

    func testEachPeersFlagIsAnsweredWithAfgetsOwn() {
        let cases: [([String], [String])] = [
            (["-O", "out.html", url], ["-O out.html: wget's -O FILE is -o FILE in afget"]),
            (["-qO", "out.html", url], ["-O out.html: wget's -O FILE is -o FILE in afget"]),
            (["-qO-", url], ["-qO-: wget's -O - (the body to standard output) is -o - in afget"]),
            (["-O", "-", url], ["-O -: wget's -O - (the body to standard output) is -o - in afget"]),
            (["--output-document=page.html", url], ["--output-document=page.html: wget's -O FILE is -o FILE"]),
            (["-t", "3", url], ["-t 3: wget counts every attempt, afget's --retry only those after the first: --retry 2"]),
            (
                ["--tries=5", url],
                ["--tries=5: wget counts every attempt, afget's --retry only those after the first: --retry 4"]
            ),
            (["--tries", "0", url], ["--tries 0: wget's tries are --retry N in afget"]),
            (["-N", url], ["-N: wget's timestamping is --on-exists update in afget"]),
            (["request", "-nc", url], ["-nc: afget never replaces a file that exists unless told to"]),
            (["-C", "-", url], ["-C -: afget continues its own downloads by itself"]),
            (["-s", url], ["-s: curl's silent mode is -q in afget (afget's -s N splits a download over N connections)"]),
            ([url, "-s"], ["-s: curl's silent mode is -q in afget"]),
            (["--silent", url], ["--silent: curl's silent mode is -q in afget"]),
            // curl's -f and -S are afget's download defaults, taken as they are; its -s is not.
            (["-fsSL", url], ["-s: curl's silent mode is -q"]),
            (["-sS", url], ["-s: curl's silent mode is -q"]),
            (["upload", "--fail", "f", url], ["--fail: afget exits 8 on an HTTP error status already; leave it out"]),
            (["request", "-S", url], ["-S: afget always shows failures"]),
            // wget's -k beside wget's -nc, which afget takes: still its link conversion.
            (["-nc", "-k", url], ["-k: afget's -k is curl's --insecure"]),
            (
                ["-x", "4", url],
                ["-x 4: aria2c's connections per server are -s 4 in afget (afget's -x is a proxy URL, as curl's)"]
            ),
            (["-x16", "-s16", url], ["-x16: aria2c's connections per server are -s 16", "-s16: write -s 16"]),
            (["-c", "cookies.txt", url], ["-c cookies.txt: curl's cookie jar is --cookie-jar FILE in afget"]),
            (["-b", "a=1", url], ["-b: curl's -b is --cookie 'NAME=VALUE' in afget"]),
            (["-k", "1M", url], ["-k 1M: aria2c's -k SIZE is --min-split-size 1M in afget"]),
            // The crawl's options are afget's own; wget's letters afget gives other meanings are answered.
            (
                ["-r", "-k", "-np", url],
                ["-k: afget's -k is curl's --insecure (certificates are not checked); wget's -k is --convert-links"]
            ),
            (["-r", "-H", url], ["-H: wget's -H is --span-hosts in afget (afget's -H is curl's: a header)"]),
            (["-r", "-H", "-np", url], ["-H: wget's -H is --span-hosts"]),
            (["-r", "-A", "*.iso,pdf", url], ["-A *.iso,pdf: wget's -A is --accept *.iso,pdf in afget"]),
            (["-p", "-A", "iso", url], ["-A iso: wget's -A is --accept iso in afget"]),
            (["request", "-r", url], ["-r: a recursive download is afget's download command: afget -r URL"]),
            (["upload", "--recursive", "f", url], ["--recursive: a recursive download is afget's download command"]),
            (["resume", "-np"], ["-np: a recursive download is afget's download command"]),
            (["--parallel-max-host", "2", url], ["--parallel-max-host: curl's --parallel-max-host N is --max-per-host N"]),
            (["-m", url], ["-m: wget's -m is --mirror URL in afget (afget's -m SECONDS is --max-time)"]),
            (["--data", "a=1", url], ["--data: a request body is for afget request: afget request POST URL -d DATA"]),
            (["--json", "a=1", url], ["--json: a JSON body is for afget request"]),
            (["-X", "POST", url], ["-X POST: the method comes first in afget request: afget request POST URL"]),
            (["-T", "f.txt", url], ["-T f.txt: an upload is afget upload FILE URL"]),
            (["-T", "30", url], ["-T 30: wget's timeout is --connect-timeout SECONDS and --stall-timeout SECONDS"]),
            (["-I", url], ["-I: afget request -i HEAD URL prints the status line and headers"]),
            (["-j8", url], ["-j8: write -j 8: afget takes an option's value as the next word"]),
            (["-xhttp://p:3128", url], ["-xhttp://p:3128: write -x http://p:3128"]),
            (["--no-check-certificate", url], ["--no-check-certificate: wget's --no-check-certificate is -k"]),
            (["request", "-s", url], ["-s: afget request prints only the body, failures and retries already"]),
            (["request", "--fail", url], ["--fail: afget request exits 8 on a status outside --accept-status already"]),
            (["request", "-O", url], ["-O: afget request saves the body with -o FILE"]),
            (["upload", "-x", "8", "f", url], ["-x 8: aria2c's connections per server are -s 8"]),
            (["upload", "--data", "x", "f", url], ["--data: a request body is for afget request"]),
        ]
        for (arguments, expected) in cases {
            let found = lines(arguments)
            XCTAssertEqual(found.count, expected.count, "\(arguments): \(found)")
            for (line, start) in zip(found, expected) {
                XCTAssertTrue(line.hasPrefix(start), "\(arguments): \(line)")
            }
        }
    }

    /// afget's own meanings of the flags it shares with the other tools, and its other command
    /// lines, are read as afget's: no hint, and they parse.
    func testAfgetsOwnCommandLinesAreLeftAlone() throws {
        for arguments in [
            ["-O", url], ["-OL", url], ["-qO", url], ["-O", "-i", "list.txt"], ["-c", url], ["-c", "-i", "list.txt"],
            ["-k", url], ["-kc", url], ["-s", "8", url], ["-x", "http://proxy:3128", url], ["-x", "proxy:3128", url],
            ["--proxy", "", url], ["-m", "600", url], ["-m", "1.5", url], ["-d", "downloads", url], ["-q", "-o", "-", url],
            ["resume", "-c", "downloads/"], ["resume", "-s", "4"], ["request", "POST", url, "-d", "a=1"],
            ["request", url, "--json", "a=1"], ["request", "--form", url, "a=1"], ["upload", "-k", "1", url],
            ["-i", "urls.txt", "-j", "8", "-d", "downloads"], ["--", "-O"], ["-H", "X-Tries: 3", url],
            // curl's and wget's flags that mean what afget does anyway.
            ["-f", url], ["-S", url], ["-fSL", url], ["--fail", url], ["--show-error", url], ["-nc", url],
            ["--no-clobber", url], ["--create-dirs", "-o", "a/b/f.iso", url], ["--remote-header-name", url],
            ["-OJ", url], ["--show-progress", "-q", url],
            // A recursive download in wget's words, where afget's letters mean what wget's do.
            ["-r", "-np", "-nH", "--cut-dirs", "2", "-R", "index.html*", url], ["-r", "-l", "inf", "-nd", "-p", url],
            ["-r", "-D", "example.org", "--span-hosts", url], ["-r", "-e", "robots=off", url], ["--mirror", url],
            ["-r", "-A", "Mozilla/5.0 (X11)", url], ["-r", "-H", "X-Tries: 3", url], ["-r", "--accept", "*.iso", url],
        ] {
            XCTAssertEqual(lines(arguments), [], "\(arguments)")
            XCTAssertNoThrow(try AFGetCommand.parseAsRoot(arguments), "\(arguments)")
        }
        // A word after -O that is a URL without its scheme: the URL, read as http.
        XCTAssertEqual(lines(["-O", "example.org/f.iso"]), [])
        // Beside such a URL, a file name after -O is wget's.
        XCTAssertEqual(lines(["-O", "out.html", "example.org/f.iso"]).count, 1)
        XCTAssertEqual(lines(["-O", "out.html", "--help"]), [], "help asked for is help given")
    }

    /// The letters `PeerHabits` takes for afget's own are the parser's, command by command.
    func testTheLettersAreTheParsers() throws {
        let commands: [(PeerHabit.Command, ParsableCommand.Type)] = [
            (.download, DownloadCommand.self), (.resume, ResumeCommand.self), (.request, RequestCommand.self),
            (.upload, UploadCommand.self),
        ]
        for (command, type) in commands {
            var flags: Set<Character> = []
            var values: Set<Character> = []
            let description = try JSONSerialization.jsonObject(with: Data(type._dumpHelp().utf8)) as? [String: Any]
            let arguments = (description?["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? []
            for argument in arguments {
                for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "short" {
                    guard let letter = (name["name"] as? String)?.first else { continue }
                    if argument["kind"] as? String == "flag" { flags.insert(letter) } else { values.insert(letter) }
                }
            }
            XCTAssertEqual(PeerHabits.letters(of: command).flags, flags, "\(command)")
            XCTAssertEqual(PeerHabits.letters(of: command).values, values, "\(command)")
        }
    }
}
