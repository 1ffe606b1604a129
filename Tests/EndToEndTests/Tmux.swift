import Foundation
import XCTest

/// A tmux server of the test's own (its own socket, no config file), whose sessions run afget
/// in windows of chosen sizes: what a person sees in a terminal, read back with `capture-pane`.
/// tmux keeps a real screen and scrollback, so a frame left behind or a line that wrapped
/// shows in a capture as it would on screen. A pane stays open after its command ends, so
/// the screen a run left can be read.
final class Tmux {
    private let socket = "afget-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    private static let program = "/usr/bin/tmux"
    private var sessions: [String] = []

    /// Starts `command` (a shell command line) in a new detached session named `session`, in
    /// a window `columns` × `rows`, in `directory`. `environment` is set for the command alone.
    /// The shell then writes the command's exit status where `exitStatus` finds it, prints
    /// `endMark`, and keeps the pane's terminal open.
    func start(
        _ command: String, session: String, columns: Int, rows: Int, in directory: URL,
        environment: [String: String] = [:]
    ) throws {
        let settings = (["XDG_CONFIG_HOME": "/nonexistent/afget-tests"].merging(environment) { $1 })
            .sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        sessions.append(session)
        // The terminal stays open after the command (`exec sleep`): tmux drops what a pane's
        // terminal still holds unread when the pane's process ends, and that was afget's last
        // lines on a loaded machine.
        let run = try tmux(
            ["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", "-c", directory.path]
                + settings
                + ["\(command); echo $? > '\(statusFile(session).path)'; printf '%s\\n' '\(Self.endMark)'; exec sleep infinity"])
        XCTAssertEqual(run.status, 0, "tmux new-session: \(run.stderr)")
    }

    /// The lines of the session's screen (with `history`, the scrollback above it first),
    /// trailing spaces removed, the end mark left out. `joined`: a line that wrapped comes
    /// back whole.
    func capture(_ session: String, history: Bool = false, joined: Bool = false) throws -> [String] {
        var arguments = ["capture-pane", "-p", "-t", session]
        if history { arguments += ["-S", "-"] }
        if joined { arguments.append("-J") }
        let run = try tmux(arguments)
        XCTAssertEqual(run.status, 0, "tmux capture-pane: \(run.stderr)")
        var lines = run.stdout.components(separatedBy: "\n").map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        // The mark follows the command's last byte, which need not end a line.
        if let marked = lines.lastIndex(where: { $0.hasSuffix(Self.endMark) }) {
            lines[marked].removeLast(Self.endMark.count)
            if lines[marked].isEmpty { lines.remove(at: marked) }
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Types `keys` into the session's pane as a person would (tmux's key names: `C-c` is
    /// Ctrl-C, which the terminal turns into SIGINT and echoes as `^C`).
    func sendKeys(_ session: String, _ keys: String) throws {
        let run = try tmux(["send-keys", "-t", session, keys])
        XCTAssertEqual(run.status, 0, "tmux send-keys: \(run.stderr)")
    }

    /// The exit status of the session's command once it has ended and tmux has drawn all it
    /// wrote (the end mark is on the screen); nil until then.
    func exitStatus(_ session: String) throws -> Int32? {
        guard let text = try? String(contentsOf: statusFile(session), encoding: .utf8), text.hasSuffix("\n") else { return nil }
        let run = try tmux(["capture-pane", "-p", "-J", "-t", session, "-S", "-"])
        guard run.stdout.contains(Self.endMark) else { return nil }
        return Int32(text.dropLast())
    }

    /// What the shell prints after the command: once tmux shows it, tmux has read every byte
    /// the command wrote before it.
    private static let endMark = "~afget-test-command-ended~"

    /// Where the shell of a session writes its command's exit status. tmux's own
    /// `pane_dead_status` is not always set: a pane whose terminal closed first is dead
    /// without one.
    private func statusFile(_ session: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(session).status")
    }

    /// Ends the server and every session in it.
    func kill() {
        _ = try? tmux(["kill-server"])
        for session in sessions { try? FileManager.default.removeItem(at: statusFile(session)) }
    }

    /// Runs tmux to its end, its output in files. Not through `Process`: Foundation learns
    /// that a child ended when a socket the child inherited is closed, and the server a first
    /// tmux command starts inherits it too and keeps it, so that wait would never end.
    private func tmux(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let files = ["out", "err"].map {
            FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\($0)-\(UUID().uuidString)").path
        }
        defer { files.forEach { unlink($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, files[0], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, files[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // TERM for tmux itself; the panes get tmux's own.
        let environment = ProcessInfo.processInfo.environment.merging(["TERM": "xterm"]) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = [Self.program, "-L", socket, "-f", "/dev/null"] + arguments
        var pid = pid_t()
        let spawned = withCStrings(argv) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, Self.program, &actions, nil, argv, envp) }
        }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return ((status >> 8) & 0xFF, read(files[0]), read(files[1]))
    }
}

/// `strings` as a NULL-ended array of C strings, for exec and spawn calls.
private func withCStrings<Result>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}
