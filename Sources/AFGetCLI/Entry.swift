import AFGetKit
import ArgumentParser
import CurlCore
import Glibc

/// A usage problem found after parsing (a malformed header, say): one line, exit 2.
struct UsageFailure: Error {
    let message: String
}

/// Runs afget with the process's arguments and returns its exit status. Parse errors are one
/// line on stderr and exit 2 (not ArgumentParser's 64), help and version go to stdout.
public enum Entry {
    public static func run(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Int32 {
        // A closed pipe is a write error to report, not a reason to die silently.
        signal(SIGPIPE, SIG_IGN)
        // curl_global_init must finish before any thread touches libcurl (URL parsing included).
        CurlRuntime.initialize()
        if arguments == ["--help"] || arguments == ["-h"] {
            // `afget --help` shows the default command's options too: that is what people look for.
            OutputStream.standardOutput.writeLine(
                AFGetCommand.helpMessage() + "\n\n" + AFGetCommand.helpMessage(for: DownloadCommand.self))
            return 0
        }
        var command: ParsableCommand
        do {
            command = try AFGetCommand.parseAsRoot(arguments)
        } catch {
            if AFGetCommand.exitCode(for: error) == .success {
                OutputStream.standardOutput.writeLine(AFGetCommand.fullMessage(for: error))
                return 0
            }
            let message = AFGetCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            OutputStream.standardError.writeLine("afget: \(message) (see afget --help)")
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
        } catch {
            if AFGetCommand.exitCode(for: error) == .success {
                OutputStream.standardOutput.writeLine(AFGetCommand.fullMessage(for: error))
                return 0
            }
            OutputStream.standardError.writeLine("afget: internal error: \(error) (please report it)")
            return FailureClass.internalError.exitCode
        }
    }
}
