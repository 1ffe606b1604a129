import AFGetSupport
import AFGetKit
import ArgumentParser
import CurlCore
import FoundationEssentials
import Glibc

/// A usage problem found after parsing (a malformed header, say): one line, exit 2.
struct UsageFailure: Error {
    let message: String
}

/// Runs afget with the process's arguments and returns its exit status. Parse errors are one
/// line on stderr and exit 2 (not ArgumentParser's 64), help and version go to stdout.
public enum Entry {
    /// Gives each of descriptors 0, 1 and 2 that the parent left closed (`afget ... >&-`) a
    /// placeholder before anything else is opened: otherwise the next descriptor opened (the
    /// runtime's eventfd, a socket, a part file) takes its number, and what is meant for standard
    /// output goes there. The placeholder is /dev/null opened the wrong way round, so writing
    /// standard output fails with EBADF and is reported, as reading a closed stdin is. Must run
    /// before the async runtime starts: the first statement of `main`.
    public static func holdClosedStandardStreams() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            _ = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
        }
    }

    /// Runs with the process's own arguments, refusing any that is not valid UTF-8: Swift's
    /// strings would replace its bad bytes with U+FFFD, and a path afget cannot use exactly
    /// must not be used at all.
    public static func run() async -> Int32 {
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
            let escaped = UnsafeBufferPointer(
                start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw)
            )
            .map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
            OutputStream.standardError.writeLine(
                "afget: argument \(index) (\(escaped)) is not valid UTF-8; afget cannot use it exactly")
            return FailureClass.usage.exitCode
        }
        return await run(Array(CommandLine.arguments.dropFirst()))
    }

    public static func run(_ arguments: [String]) async -> Int32 {
        // A closed pipe is a write error to report, not a reason to die silently; so is a file
        // reaching the shell's size limit (`ulimit -f`), which would otherwise kill afget.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        // curl_global_init must finish before any thread touches libcurl (URL parsing included).
        CurlRuntime.initialize()
        DescriptorBudget.raiseOpenFileLimit()
        if arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            // `afget --help` shows the default command's options too: that is what people look
            // for, and what a usage error's "see afget --help" points to. `afget help` is the same
            // page (ArgumentParser's lists only the commands). Pages of many lines are written as
            // they are: `writeLine` is one line for people.
            OutputStream.standardOutput.write(
                AFGetCommand.helpMessage() + "\n\n" + AFGetCommand.helpMessage(for: DownloadCommand.self) + "\n")
            return 0
        }
        // Before the config file is read: the completion script does not depend on it.
        if CompletionRoot.isAsked(by: arguments) { return completionScript(arguments) }
        // ArgumentParser answers `afget help nosuch` with the general help and exit 0; a
        // script asking for a command that does not exist is told so.
        let commandNames = AFGetCommand.commandNames
        if arguments.first == "help", arguments.count > 1, !commandNames.contains(arguments[1]) {
            OutputStream.standardError.writeLine(
                "afget: help: no command \(arguments[1]) (the commands: \(commandNames.joined(separator: ", ")))")
            return FailureClass.usage.exitCode
        }
        // curl's, wget's and aria2c's flags, answered with afget's own before the parser reads
        // them as something else (or refuses them without a word of what to type instead).
        let habits = PeerHabits.lines(for: arguments)
        if !habits.isEmpty {
            habits.forEach { OutputStream.standardError.writeLine("afget: \($0)") }
            return FailureClass.usage.exitCode
        }
        let configured: ConfigArguments?
        do {
            configured = try ConfigArguments.make(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            OutputStream.standardError.writeLine("afget: \(error.message)")
            return FailureClass.usage.exitCode
        }
        var command: ParsableCommand
        do {
            command = try AFGetCommand.parseAsRoot(DataArguments.marked(configured?.merged() ?? arguments))
        } catch {
            if AFGetCommand.exitCode(for: error) == .success {
                OutputStream.standardOutput.write(successText(for: error) + "\n")
                return 0
            }
            let message = Self.firstLine(of: error)
            let refused = configured?.lineRefused { arguments in
                do {
                    _ = try AFGetCommand.parseAsRoot(arguments)
                    return nil
                } catch {
                    return Self.firstLine(of: error)
                }
            }
            if let configured, let refused {
                OutputStream.standardError.writeLine(
                    "afget: \(ConfigFailure(path: configured.path, line: refused.line, cause: refused.message).message)")
            } else {
                OutputStream.standardError.writeLine("afget: \(message) (see \(helpPage(for: arguments)))")
            }
            return FailureClass.usage.exitCode
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch let usage as UsageFailure {
            OutputStream.standardError.writeLine("afget: \(usage.message)")
            return FailureClass.usage.exitCode
        } catch let failure as TransferFailure {
            // Found before any transfer: a file named on the command line that cannot be used.
            OutputStream.standardError.writeLine("afget: \(failure.message)")
            return failure.exitCode
        } catch {
            if AFGetCommand.exitCode(for: error) == .success {
                OutputStream.standardOutput.write(successText(for: error) + "\n")
                return 0
            }
            OutputStream.standardError.writeLine("afget: internal error: \(error) (please report it)")
            return FailureClass.internalError.exitCode
        }
    }

    /// `--generate-completion-script SHELL`: the script for `CompletionRoot`'s tree, which
    /// completes the default command's options after a bare `afget` too.
    private static func completionScript(_ arguments: [String]) -> Int32 {
        do {
            _ = try CompletionRoot.parseAsRoot(arguments)
        } catch {
            guard CompletionRoot.exitCode(for: error) == .success else {
                let message =
                    CompletionRoot.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
                OutputStream.standardError.writeLine("afget: \(message) (see afget --help)")
                return FailureClass.usage.exitCode
            }
            OutputStream.standardOutput.write(CompletionRoot.script(generated: CompletionRoot.fullMessage(for: error)) + "\n")
            return 0
        }
        return FailureClass.usage.exitCode
    }

    /// Where a usage error sends people: the help of the command they ran, whose options it
    /// lists (`afget --help` lists the default command's).
    private static func helpPage(for arguments: [String]) -> String {
        guard let first = arguments.first, first != "download", AFGetCommand.commandNames.contains(first) else {
            return "afget --help"
        }
        return "afget \(first) --help"
    }

    /// The first line of what the parser says about arguments it refuses, its suggestion kept
    /// only when close (`CloseMatch`).
    private static func firstLine(of error: Error) -> String {
        CloseMatch.trimmed(
            AFGetCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments")
    }

    /// What help or `--version` prints (written as it is: `writeLine` is one line for people);
    /// the version with the libraries afget runs on.
    private static func successText(for error: Error) -> String {
        let text = AFGetCommand.fullMessage(for: error)
        return text == AFGetVersion.current ? AFGetVersion.withLibraries : text
    }
}
