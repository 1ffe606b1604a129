import Foundation
import XCTest

/// The shell completions afget generates (`--generate-completion-script`), run in real shells:
/// flags and option values after a bare `afget` (download is the default command), file and
/// directory names after -i, -o and -d, and the other commands still reached. Bash is always
/// there; zsh and fish are tested where installed (Scripts/test.sh installs them).
final class CompletionTests: XCTestCase {
    /// The test's own: the scripts and drivers go here.
    private var directory: URL!
    /// Where the shells run: what file and directory names complete to, and nothing else.
    private var workingDirectory: URL { directory.appendingPathComponent("work") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = try makeScratchDirectory()
        try FileManager.default.createDirectory(
            at: workingDirectory.appendingPathComponent("downloads"), withIntermediateDirectories: true)
        for name in ["urls.txt", "notes.md"] {
            _ = FileManager.default.createFile(atPath: workingDirectory.appendingPathComponent(name).path, contents: Data())
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        try super.tearDownWithError()
    }

    /// What each shell must offer for a command line that ends where TAB is pressed.
    private let expectations: [(line: String, offers: Set<String>)] = [
        ("afget --on-exists ", ["skip", "overwrite", "rename", "error", "update"]),
        ("afget --progress ", ["auto", "bar", "line", "json", "none"]),
        ("afget --auth ", ["basic", "digest", "any"]),
        ("afget --pro", ["--progress", "--profile", "--proxy"]),
        ("afget -q --stall-t", ["--stall-timeout"]),
        ("afget -i ", ["urls.txt", "notes.md", "downloads"]),
        ("afget -o u", ["urls.txt"]),
        ("afget -d ", ["downloads"]),
        // After a URL the line is still download's.
        ("afget https://example.org/a.iso --on-e", ["--on-exists"]),
        // The other commands are still reached.
        ("afget request --js", ["--json"]),
        ("afget download --on-exists r", ["rename"]),
        ("afget upload n", ["notes.md"]),
    ]

    func testBashCompletesFlagsValuesAndFileNames() throws {
        let script = try generatedScript(for: "bash")
        for (line, offers) in expectations {
            XCTAssertEqual(try bashOffers(line, script: script), offers, line)
        }
        // A bare `afget -` offers download's flags as well as --help and --version.
        let dash = try bashOffers("afget -", script: script)
        XCTAssertTrue(dash.isSuperset(of: ["--help", "--version", "--output", "--input-file", "--on-exists", "-j"]), "\(dash)")
    }

    func testZshCompletesFlagsValuesAndFileNames() throws {
        let zsh = try installedShell("zsh")
        let functions = directory.appendingPathComponent(".zsh-functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: false)
        try generatedScript(for: "zsh").write(to: functions.appendingPathComponent("_afget"), atomically: true, encoding: .utf8)
        let driver = directory.appendingPathComponent(".complete.zsh")
        try Self.zshDriver.write(to: driver, atomically: true, encoding: .utf8)
        for (line, offers) in expectations {
            let output = try runProgram(zsh, ["-f", driver.path, functions.path, line])
            // The pseudo-terminal ends lines with CR LF.
            XCTAssertEqual(Set(output.split(whereSeparator: \.isNewline).map(String.init)), offers, line)
        }
    }

    func testFishCompletesFlagsValuesAndFileNames() throws {
        let fish = try installedShell("fish")
        let script = directory.appendingPathComponent(".afget.fish")
        try generatedScript(for: "fish").write(to: script, atomically: true, encoding: .utf8)
        for (line, offers) in expectations {
            let output = try runProgram(fish, ["--no-config", "-c", "source \(script.path); complete -C\(shellQuoted(line))"])
            // Each line is a candidate, a tab, and its description; directories end in "/".
            let candidates = output.split(separator: "\n").map {
                String($0.split(separator: "\t", maxSplits: 1).first ?? "").trimmingSuffix("/")
            }
            XCTAssertEqual(Set(candidates), offers, line)
        }
    }

    /// Scripts/install-completions.sh (what Scripts/install.sh runs after the build) puts each
    /// script where its shell looks under PREFIX, as the binary generates it.
    func testInstallPutsEachScriptWhereItsShellLooks() throws {
        let prefix = directory.appendingPathComponent("prefix")
        let script = Self.repository.appendingPathComponent("Scripts/install-completions.sh")
        let result = try runProgram(
            "/bin/bash", [script.path, Afget.binary.path], environment: ["PREFIX": prefix.path])
        XCTAssertTrue(result.contains("installed completions for bash, zsh and fish"), result)
        let places = [
            ("bash", "share/bash-completion/completions/afget"),
            ("zsh", "share/zsh/site-functions/_afget"),
            ("fish", "share/fish/vendor_completions.d/afget.fish"),
        ]
        for (shell, path) in places {
            let installed = prefix.appendingPathComponent(path)
            XCTAssertEqual(try String(contentsOf: installed, encoding: .utf8), try generatedScript(for: shell), path)
            let mode = try FileManager.default.attributesOfItem(atPath: installed.path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o644, path)
        }
        let installedBash = try String(
            contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/afget"), encoding: .utf8)
        XCTAssertEqual(
            try bashOffers("afget --on-exists ", script: installedBash), ["skip", "overwrite", "rename", "error", "update"])
    }

    // MARK: Shells

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func generatedScript(for shell: String) throws -> String {
        let result = try Afget.run(["--generate-completion-script", shell], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText
    }

    /// What bash's completion function puts in COMPREPLY for `line`, with the words, the
    /// current word and the cursor set as bash sets them when TAB is pressed at its end.
    private func bashOffers(_ line: String, script: String) throws -> Set<String> {
        let scriptFile = directory.appendingPathComponent(".afget.bash")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.isEmpty { words = [""] }
        let driver = """
            source \(shellQuoted(scriptFile.path))
            COMP_WORDS=(\(words.map(shellQuoted).joined(separator: " ")))
            COMP_CWORD=\(words.count - 1)
            COMP_LINE=\(shellQuoted(line))
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _afget afget "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try runProgram("/bin/bash", ["--norc", "--noprofile", "-c", driver])
        return Set(output.split(separator: "\n").map(String.init))
    }

    /// Drives an interactive zsh on a pseudo-terminal (zsh/zpty): loads the completion system
    /// with the directory given, then types the line and TAB. compadd is wrapped to print each
    /// candidate that matches what was typed; a function after completion marks the end.
    /// The markers are split in the source so the echoed definitions never match them.
    private static let zshDriver = #"""
        zmodload zsh/zpty
        zpty shell zsh -f -i
        zpty -w shell "PS1='' RPROMPT=''; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
        zpty -w shell 'compadd() {
          if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
          local -a found; builtin compadd -O found "$@"
          (( ${#found} )) && print -rl -- ${^found/#/"<<off""er>>"}
          builtin compadd "$@"
        }'
        zpty -w shell 'completion_ended() { print -r -- "<<end""ed>>"; }; comppostfuncs=(completion_ended)'
        zpty -w -n shell "$2"$'\t'
        while zpty -r shell line; do
          [[ $line == *'<<ended>>'* ]] && break
          [[ $line == *'<<offer>>'* ]] && print -r -- "${${line##*<<offer>>}%%$'\r'*}"
        done
        zpty -d shell
        """#

    private func installedShell(_ name: String) throws -> String {
        for directory in ["/usr/bin", "/bin", "/usr/local/bin"]
        where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw XCTSkip("\(name) is not installed (Scripts/test.sh installs it)")
    }

    /// Runs a shell in the test's directory with afget on PATH; its standard output. Gives up
    /// after 20 s (a shell waiting for input it will never get).
    private func runProgram(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        var changes: [String: String?] = [
            "PATH": Afget.binary.deletingLastPathComponent().path + ":"
                + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        ]
        for (name, value) in environment { changes[name] = value }
        let run = try EndToEndTests.runProgram(program, arguments, in: workingDirectory, environment: changes, timeout: 20)
        XCTAssertFalse(run.timedOut, "\(program) \(arguments) timed out")
        return run.stdout
    }
}

private func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
