@testable import AFGetCLI
import Foundation
import XCTest

/// A config file's text → its options, and the lines refused with their numbers.
final class ConfigFileParsingTests: XCTestCase {
    private func lines(_ text: String) throws -> [ConfigFile.Line] {
        try ConfigFile(path: "c", text: text).lines
    }

    func testTheFormsALineMayTake() throws {
        let parsed = try lines(
            "# comment\r\n\r\njobs = 8\r\n  --header X-A: b=c\n\tquiet\nuser-agent=\"  spaced \\\"agent\\\" \"\nretry 3\n")
        XCTAssertEqual(
            parsed,
            [
                .init(number: 3, name: "jobs", value: "8"),
                .init(number: 4, name: "header", value: "X-A: b=c"),
                .init(number: 5, name: "quiet", value: nil),
                .init(number: 6, name: "user-agent", value: "  spaced \"agent\" "),
                .init(number: 7, name: "retry", value: "3"),
            ])
    }

    func testLinesThatAreNotOptionsAreRefusedByNumber() {
        let refused: [(String, Int, String)] = [
            ("jobs = 2\n= 8\n", 2, "is not an option"),
            ("jobs =\n", 1, "jobs has an empty value"),
            ("\n\nuser-agent = \"open\n", 3, "does not end with"),
            ("-q\n", 1, "is not an option"),
            ("user-agent = \"ends in an escaped quote\\\"\n", 1, "does not end with"),
        ]
        for (text, line, cause) in refused {
            XCTAssertThrowsError(try ConfigFile(path: "c", text: text), text) { error in
                let failure = error as? ConfigFailure
                XCTAssertEqual(failure?.line, line, text)
                XCTAssertTrue(failure?.message.hasPrefix("config file c:\(line): ") ?? false, "\(String(describing: failure))")
                XCTAssertTrue(failure?.cause.contains(cause) ?? false, "\(String(describing: failure))")
            }
        }
    }

    func testTheDefaultPathFollowsXDG() {
        XCTAssertEqual(ConfigSelection.defaultPath(["XDG_CONFIG_HOME": "/x", "HOME": "/h"]), "/x/afget/config")
        XCTAssertEqual(ConfigSelection.defaultPath(["XDG_CONFIG_HOME": "rel", "HOME": "/h"]), "/h/.config/afget/config")
        XCTAssertNil(ConfigSelection.defaultPath([:]))
        XCTAssertEqual(ConfigSelection(arguments: ["--config=f", "u"], environment: [:]), .chosen("f"))
        XCTAssertEqual(ConfigSelection(arguments: ["--config", "f", "--no-config"], environment: [:]), .none)
        XCTAssertEqual(ConfigSelection(arguments: ["--", "--config", "f"], environment: [:]), .none)
    }

    /// Read from disk: an empty file (the config-file fuzz target's LeakSanitizer found the 4 KiB
    /// Foundation's reader leaked for it), a byte order mark, bytes that are not UTF-8, no file.
    func testFilesAreReadWholeAndChecked() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("afget-config-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func file(_ bytes: [UInt8]) -> String {
            let path = directory + "/config"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            return path
        }
        XCTAssertEqual(try ConfigFile.read(file([])).lines, [])
        XCTAssertEqual(
            try ConfigFile.read(file([0xEF, 0xBB, 0xBF] + Array("jobs = 8\n".utf8))).lines,
            [.init(number: 1, name: "jobs", value: "8")])
        XCTAssertThrowsError(try ConfigFile.read(file([0x6A, 0xFF]))) { error in
            XCTAssertEqual((error as? ConfigFailure)?.message, "config file \(directory)/config: is not UTF-8 text")
        }
        XCTAssertThrowsError(try ConfigFile.read(directory + "/none")) { error in
            XCTAssertEqual((error as? ConfigFailure)?.message, "config file \(directory)/none: cannot be read")
        }
    }
}
