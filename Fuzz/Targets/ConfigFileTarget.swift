import ArgumentParser
import Glibc

@testable import AFGetCLI

/// The config file, read as afget reads it: its lines, then the options they become ahead of
/// the command line, then swift-argument-parser's verdict. A line afget cannot use is refused
/// naming the file and the line; one it takes becomes `--name[=value]`.
enum ConfigFileTarget: FuzzTarget {
    static let name = "config-file"

    /// In TMPDIR, which Scripts/fuzz.sh points into .build/fuzz and empties after the run.
    private static let path = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/afget-fuzz-config-\(getpid())"
    private static let commandLine = ["--config", path, "https://files.example/f.iso"]

    static func fuzz(_ input: [UInt8]) {
        let text = input.text
        let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        do {
            let file = try ConfigFile(path: path, text: text)
            var previous = 0
            for line in file.lines {
                expect(line.number > previous && line.number <= lineCount, "line \(line.number) of \(lineCount)")
                previous = line.number
                expect(line.name.first?.isLetter == true, "option name \"\(line.name)\"")
                expect(line.name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }, "option name \"\(line.name)\"")
            }
        } catch {
            checkRefusal(error, lineCount: lineCount)
        }

        guard writeFile(input) else { return }
        let configured: ConfigArguments?
        do {
            configured = try ConfigArguments.make(commandLine, environment: [:])
        } catch {
            if String(validating: input, as: UTF8.self) == nil {
                expect(error.line == nil && error.cause.contains("UTF-8"), "not UTF-8, refused as \(error.message)")
            } else {
                checkRefusal(error, lineCount: lineCount)
            }
            return
        }
        guard let configured else { return expect(false, "--config FILE read no file") }
        expect(configured.lines.allSatisfy { $0.arguments.allSatisfy { $0.hasPrefix("--") } }, "a config argument not an option")
        expect(configured.merged().suffix(1) == commandLine.suffix(1), "the command line's URL moved")
        // What the parser refuses is pinned on a line of the file.
        do {
            _ = try AFGetCommand.parseAsRoot(configured.merged())
        } catch {
            let refused = configured.lineRefused { arguments in
                do {
                    _ = try AFGetCommand.parseAsRoot(arguments)
                    return nil
                } catch {
                    return AFGetCommand.message(for: error)
                }
            }
            expect(refused != nil, "the parser refused the file's options, no line named: \(AFGetCommand.message(for: error))")
            if let refused { expect((1...lineCount).contains(refused.line), "refused line \(refused.line) of \(lineCount)") }
        }
    }

    private static func checkRefusal(_ failure: ConfigFailure, lineCount: Int) {
        expect(!failure.cause.isEmpty, "a refusal without a cause")
        expect(failure.message.hasPrefix("config file \(path)"), "a refusal not naming the file: \(failure.message)")
        if let line = failure.line { expect((1...lineCount).contains(line), "refused line \(line) of \(lineCount)") }
    }

    private static func writeFile(_ bytes: [UInt8]) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }
}
