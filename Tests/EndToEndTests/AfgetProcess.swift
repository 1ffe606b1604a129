import Foundation
import XCTest

/// What a finished `afget` run left behind: exit status and both output streams.
struct AfgetResult {
    let status: Int32
    let stdout: Data
    let stderr: String

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs the built `afget` binary as a user would, in a directory of the test's own.
enum Afget {
    /// `.build/<triple>/debug/afget`, beside the test bundle; AFGET_BINARY overrides.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["AFGET_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        var directory = Bundle.main.bundleURL
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("afget")
    }

    /// Starts afget with stdout and stderr going to files; the caller waits. `launcher` is a
    /// command afget is run through, its program first (setpriv to run as another user, a
    /// shell that sets signal dispositions before `exec`).
    /// `feeding`: a pipe the test writes standard input into as it goes (a list arriving line
    /// by line), instead of `input` given whole.
    static func start(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        input: Data? = nil, feeding: Pipe? = nil, launcher: [String] = []
    ) throws -> (process: Process, stdout: URL, stderr: URL) {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        // A config file of the machine's user must not change what a test runs; a test of
        // config files sets XDG_CONFIG_HOME itself.
        env["XDG_CONFIG_HOME"] = "/nonexistent/afget-tests"
        env.merge(environment) { $1 }
        process.environment = env
        let stdout = directory.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let stderr = directory.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        if let feeding {
            process.standardInput = feeding
            try process.run()
        } else if let input {
            let stdin = directory.appendingPathComponent(".stdin-\(UUID().uuidString)")
            try input.write(to: stdin)
            process.standardInput = try FileHandle(forReadingFrom: stdin)
            defer { try? FileManager.default.removeItem(at: stdin) }
            try process.run()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        return (process, stdout, stderr)
    }

    /// Runs afget to the end and collects what it printed; the output files are removed.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        input: Data? = nil, launcher: [String] = []
    ) throws -> AfgetResult {
        let (process, stdoutURL, stderrURL) = try start(
            arguments, in: directory, environment: environment, input: input,
            launcher: launcher)
        process.waitUntilExit()
        defer {
            try? FileManager.default.removeItem(at: stdoutURL)
            try? FileManager.default.removeItem(at: stderrURL)
        }
        return AfgetResult(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: stdoutURL),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8))
    }
}

/// A fresh empty directory per test, removed afterwards.
func makeScratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("afget-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Names in a directory, hidden output capture files excluded.
func listing(_ directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { !$0.hasPrefix(".stdout-") && !$0.hasPrefix(".stderr-") && !$0.hasPrefix(".stdin-") }
        .sorted()
}

/// Runs a `/bin/sh -c` command line in `directory` (umask settings, raw argument bytes, gzip(1)):
/// its exit status and what it wrote on stderr.
@discardableResult
func runShell(_ command: String, in directory: URL) throws -> (status: Int32, stderr: String) {
    let run = try runProgram("/bin/sh", ["-c", command], in: directory)
    return (run.status, run.stderr)
}
