import Foundation

/// What a program run to its end wrote, and how it ended.
struct ProgramRun {
    let status: Int32
    let stdout: String
    let stderr: String
    /// It was terminated for taking longer than its time limit.
    let timedOut: Bool
}

/// Runs a program in `directory` with an empty standard input, both output streams collected.
/// `environment` changes afget's own environment (nil removes a variable); `timeout` ends a
/// program that never would (a shell waiting for input it will never get).
func runProgram(
    _ path: String, _ arguments: [String], in directory: URL, environment: [String: String?] = [:],
    timeout: TimeInterval? = nil
) throws -> ProgramRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var inherited = ProcessInfo.processInfo.environment
    for (name, value) in environment { inherited[name] = value }
    process.environment = inherited
    // Standard error goes to a file, so that the pipe of standard output is the only one to
    // drain while the program runs.
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errors) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errors)
    process.standardInput = FileHandle.nullDevice
    let started = Date()
    try process.run()
    let limit = DispatchWorkItem { process.terminate() }
    if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: limit) }
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    limit.cancel()
    let stderr = (try? Data(contentsOf: errors)) ?? Data()
    return ProgramRun(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self),
        timedOut: timeout.map { Date().timeIntervalSince(started) >= $0 } ?? false)
}
