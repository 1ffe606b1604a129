import Foundation

/// What a shell command drew on a pseudo-terminal, as script(1) copies it, and its exit status.
/// Colour is off unless `color` is set (NO_COLOR), TERM is xterm. `size` sets the window's
/// size on the pseudo-terminal itself (stty, which afget reads with TIOCGWINSZ).
func runInPseudoTerminal(
    _ command: String, in directory: URL, color: Bool = false, size: (columns: Int, rows: Int)? = nil
) throws -> (status: Int32, drawn: String) {
    let sized = size.map { "stty cols \($0.columns) rows \($0.rows); " + command } ?? command
    let run = try runProgram(
        "/usr/bin/script", ["-qefc", sized, "/dev/null"], in: directory,
        environment: ["NO_COLOR": color ? nil : "1", "TERM": "xterm"])
    return (run.status, run.stdout)
}
