import ArgumentParser
import FoundationEssentials

/// The options of a command, read from the parser's own description of it (the JSON behind
/// `--experimental-dump-help`), so a config line is checked against the same options the
/// command line is.
struct OptionTable {
    enum Kind {
        case flag
        /// Takes a value; `repeats` when every use adds one (`--header`), not replaces it.
        case option(repeats: Bool)
    }

    private var kinds: [String: Kind] = [:]
    /// Each long name to the first long name of its option: `output-dir` → `dir`.
    private var canonicalNames: [String: String] = [:]
    /// Short names to long ones: `q` → `quiet`.
    private var longNames: [Character: String] = [:]
    /// Long names written with one dash to the first long name: `nc` → `no-clobber`.
    private var singleDashNames: [String: String] = [:]

    init(_ command: ParsableCommand.Type) {
        let json = command._dumpHelp()
        let description = try? JSONDecoder().decode(ToolDescription.self, from: Data(json.utf8))
        for argument in description?.command.arguments ?? [] {
            let kind: Kind
            switch argument.kind {
            case "flag": kind = .flag
            case "option": kind = .option(repeats: argument.isRepeating ?? false)
            default: continue
            }
            let names = argument.names ?? []
            guard let long = names.first(where: { $0.kind == "long" })?.name else { continue }
            for name in names {
                if name.kind == "long" {
                    kinds[name.name] = kind
                    canonicalNames[name.name] = long
                }
                if name.kind == "short", let letter = name.name.first { longNames[letter] = long }
                if name.kind == "longWithSingleDash" { singleDashNames[name.name] = long }
            }
        }
    }

    func kind(of option: String) -> Kind? { kinds[option] }

    /// The option's first long name, whichever of its names is given.
    func canonicalName(_ option: String) -> String { canonicalNames[option] ?? option }

    /// The (first) long names of the options `arguments` gives, up to a `--`: `-qk` gives quiet
    /// and insecure, `--jobs=8` gives jobs, `-P x` gives dir. A value that looks like an option may be counted too,
    /// which only errs towards the command line.
    func optionsNamed(in arguments: [String]) -> Set<String> {
        var named: Set<String> = []
        for argument in arguments {
            if argument == "--" { break }
            if argument.hasPrefix("--") {
                named.insert(canonicalName(String(argument.dropFirst(2).prefix { $0 != "=" })))
            } else if let long = singleDashNames[String(argument.dropFirst())] {
                named.insert(long)
            } else if argument.hasPrefix("-"), argument.count > 1 {
                // A cluster of short flags; the first that takes a value takes the rest as it.
                for letter in argument.dropFirst() {
                    guard let long = longNames[letter] else { break }
                    named.insert(long)
                    if case .option = kinds[long] { break }
                }
            }
        }
        return named
    }
}

/// The part of the parser's JSON description that the table reads.
private struct ToolDescription: Decodable {
    struct Command: Decodable {
        let arguments: [Argument]?
    }

    struct Argument: Decodable {
        let kind: String
        let names: [Name]?
        let isRepeating: Bool?
    }

    struct Name: Decodable {
        let kind: String
        let name: String
    }

    let command: Command
}
