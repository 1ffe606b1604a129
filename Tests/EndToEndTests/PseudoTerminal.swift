import Foundation

/// What a shell command drew on a pseudo-terminal, as script(1) copies it, and its exit status.
/// Colour is off unless `color` is set (NO_COLOR), TERM is xterm. `size` sets the window's
/// size on the pseudo-terminal itself (stty, which afget reads with TIOCGWINSZ).
func runInPseudoTerminal(
    _ command: String, in directory: URL, color: Bool = false, size: (columns: Int, rows: Int)? = nil
) throws -> (status: Int32, drawn: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    let sized = size.map { "stty cols \($0.columns) rows \($0.rows); " + command } ?? command
    process.arguments = ["-qefc", sized, "/dev/null"]
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = color ? nil : "1"
    environment["TERM"] = "xterm"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let drawn = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, drawn)
}
