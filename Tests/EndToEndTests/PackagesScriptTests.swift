import Foundation
import XCTest

/// Scripts/packages.sh's `ensure_packages`, which Scripts/afget, install.sh and test.sh run
/// first on a fresh machine. Installing packages for real would change the machine the tests run
/// on, so `apt-get` is a script that answers as apt and dpkg do (a line for each package's
/// unpacking and setting up); `dpkg-query` is the machine's own, asked of a package no machine has.
final class PackagesScriptTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = try makeScratchDirectory()
        let aptGet = """
            #!/bin/sh
            echo "apt-get $*" >> "$APT_CALLS"
            [ "$1" = update ] && exit 0
            for package in "$@"; do
                case "$package" in -*|install) continue ;; esac
                echo "Selecting previously unselected package $package."
                echo "Unpacking $package (1.0) ..."
                echo "Setting up $package (1.0) ..."
                [ "$package" = afget-test-broken ] && { echo "E: Sub-process /usr/bin/dpkg returned an error code (1)" >&2; exit 100; }
            done
            exit 0
            """
        let stub = directory.appendingPathComponent("bin/apt-get")
        try FileManager.default.createDirectory(at: stub.deletingLastPathComponent(), withIntermediateDirectories: true)
        try aptGet.write(to: stub, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try super.tearDownWithError()
    }

    private func ensurePackages(_ packages: [String]) throws -> ProgramRun {
        let script = Self.repository.appendingPathComponent("Scripts/packages.sh")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return try runProgram(
            "/bin/bash", ["-c", "set -euo pipefail; source \"$0\"; ensure_packages \"$@\"", script.path] + packages,
            in: directory,
            environment: [
                "PATH": directory.appendingPathComponent("bin").path + ":" + path,
                "APT_CALLS": directory.appendingPathComponent("calls").path,
                "TMPDIR": directory.path,
            ])
    }

    /// What is installed is said in one line; apt's and dpkg's own lines go to a log, which is
    /// removed when all went well.
    func testInstallingSaysOneLineAndKeepsAptsOwnLinesOut() throws {
        try XCTSkipIf(getuid() != 0, "apt-get runs through sudo for other users")
        let result = try ensurePackages(["bash", "afget-test-absent-one", "afget-test-absent-two"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(
            result.stderr,
            "afget: installing afget-test-absent-one afget-test-absent-two (Debian packages, with apt-get)\n",
            "bash is installed already, and apt's lines are not shown")
        let calls = try String(contentsOf: directory.appendingPathComponent("calls"), encoding: .utf8)
        XCTAssertEqual(
            calls,
            "apt-get update -qq\napt-get install -y -qq --no-install-recommends afget-test-absent-one afget-test-absent-two\n")
        let logs = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("afget-packages") }
        XCTAssertEqual(logs, [], "the log of a success is not kept")
    }

    /// A failed installation shows apt's log, then one line saying what failed and where the log
    /// is, with apt-get's exit status.
    func testAFailedInstallationShowsTheLogAndItsStatus() throws {
        try XCTSkipIf(getuid() != 0, "apt-get runs through sudo for other users")
        let result = try ensurePackages(["afget-test-broken"])
        XCTAssertEqual(result.status, 100, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "afget: installing afget-test-broken (Debian packages, with apt-get)")
        XCTAssertTrue(lines.contains("Unpacking afget-test-broken (1.0) ..."), result.stderr)
        XCTAssertTrue(lines.contains("E: Sub-process /usr/bin/dpkg returned an error code (1)"), result.stderr)
        let last = try XCTUnwrap(lines.last)
        XCTAssertTrue(
            last.hasPrefix("afget: installing afget-test-broken failed (exit 100); apt-get's log is above, and in "), last)
        let log = String(last.split(separator: " ").last ?? "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: log), "the log is kept: \(log)")
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
