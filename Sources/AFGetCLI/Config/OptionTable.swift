import ArgumentParser
import FoundationEssentials

/// The long options of a command, read from the parser's own description of it (the JSON
/// behind `--experimental-dump-help`), so a config line is checked against the same options
/// the command line is.
struct OptionTable {
    enum Kind: String, Decodable {
        case flag
        case option
        case positional
    }

    private let options: [String: Kind]

    init(_ command: ParsableCommand.Type) {
        let json = command._dumpHelp()
        let description = try? JSONDecoder().decode(ToolDescription.self, from: Data(json.utf8))
        var options: [String: Kind] = [:]
        for argument in description?.command.arguments ?? [] where argument.kind != .positional {
            for name in argument.names ?? [] where name.kind == "long" { options[name.name] = argument.kind }
        }
        self.options = options
    }

    func kind(of option: String) -> Kind? { options[option] }
}

/// The part of the parser's JSON description that the table reads.
private struct ToolDescription: Decodable {
    struct Command: Decodable {
        let arguments: [Argument]?
    }

    struct Argument: Decodable {
        let kind: OptionTable.Kind
        let names: [Name]?
    }

    struct Name: Decodable {
        let kind: String
        let name: String
    }

    let command: Command
}
