@testable import AFGetCLI
import AFGetRequest
import XCTest

/// `afget request`'s command line as curl's body options: which option each value came under,
/// in the order typed, and curl's `--json DATA` told from afget's `--json` flag. No sockets.
final class DataArgumentsTests: XCTestCase {
    private func parsed(_ arguments: [String]) throws -> RequestCommand {
        let command = try AFGetCommand.parseAsRoot(DataArguments.marked(["request"] + arguments))
        return try XCTUnwrap(command as? RequestCommand)
    }

    func testPiecesKeepTheirOptionAndOrder() throws {
        let rows: [([String], [DataPiece])] = [
            (["-d", "a=1", "http://h/"], [DataPiece(.data, "a=1")]),
            (["--data=@f", "http://h/"], [DataPiece(.data, "@f")]),
            (
                ["-d", "a=1", "--data-urlencode", "b=x y", "--data-raw", "@c", "--data-binary=@d", "-d", "e", "http://h/"],
                [
                    DataPiece(.data, "a=1"), DataPiece(.urlencode, "b=x y"), DataPiece(.raw, "@c"), DataPiece(.binary, "@d"),
                    DataPiece(.data, "e"),
                ]
            ),
            (["--json", #"{"a":1}"#, "http://h/"], [DataPiece(.json, #"{"a":1}"#)]),
            (["--json", "[1]", "--json=2", "http://h/"], [DataPiece(.json, "[1]"), DataPiece(.json, "2")]),
            (["--json", "@body.json", "http://h/"], [DataPiece(.json, "@body.json")]),
            (
                ["--json", #"{"a":"#, "--json", #" "b"}"#, "http://h/"],
                [DataPiece(.json, #"{"a":"#), DataPiece(.json, #" "b"}"#)]
            ),
            (["--json", #""s""#, "http://h/"], [DataPiece(.json, #""s""#)]),
            // A value that looks like an option stays a value.
            (["--data-raw", "--json", "http://h/"], [DataPiece(.raw, "--json")]),
            (["--data-urlencode", "-d", "http://h/"], [DataPiece(.urlencode, "-d")]),
        ]
        for (arguments, pieces) in rows {
            XCTAssertEqual(try parsed(arguments).body.pieces, pieces, "\(arguments)")
        }
    }

    /// `--json` before a URL, a method or an item is afget's flag: the items go as JSON.
    func testJSONBeforeAURLMethodOrItemIsTheFlag() throws {
        for arguments in [["--json", "http://h/", "a=1"], ["--json", "POST", "http://h/"], ["http://h/", "--json", "a=1"]] {
            let command = try parsed(arguments)
            XCTAssertEqual(command.body.format, .json, "\(arguments)")
            XCTAssertEqual(command.body.pieces, [], "\(arguments)")
        }
        // After `--` nothing is an option.
        XCTAssertEqual(DataArguments.marked(["request", "--", "--data-raw", "x"]), ["request", "--", "--data-raw", "x"])
        // Other commands are left alone.
        XCTAssertEqual(DataArguments.marked(["--data-raw", "x"]), ["--data-raw", "x"])
    }

    func testAMissingValueIsTheParsersToSay() {
        XCTAssertThrowsError(try parsed(["http://h/", "--data-urlencode"])) { error in
            XCTAssertTrue(AFGetCommand.message(for: error).contains("Missing value"), AFGetCommand.message(for: error))
        }
    }
}
