/// The command line with a config file's options put before the command line's own, so that
/// what is typed wins (a later value of an option replaces an earlier one; a repeated option
/// such as `--header` adds to the file's).
struct ConfigArguments {
    /// The subcommand's name when the command line gave it, kept in front.
    let command: [String]
    /// Each config line's arguments, in file order.
    let lines: [(number: Int, arguments: [String])]
    let commandLine: [String]
    let path: String

    /// Nil when no config applies: none chosen, or help and version, which read no file.
    static func make(_ arguments: [String], environment: [String: String]) throws(ConfigFailure) -> ConfigArguments? {
        if arguments.first == "help" || arguments.contains(where: ["--help", "-h", "--version"].contains) { return nil }
        guard let path = ConfigSelection(arguments: arguments, environment: environment).path else { return nil }
        let file = try ConfigFile.read(path)
        let commands = AFGetCommand.configuration.subcommands
        let named = commands.first { $0.configuration.commandName == arguments.first }
        let table = OptionTable(named ?? DownloadCommand.self)
        // The other commands are described only if a line names an option this one lacks.
        var described: [OptionTable]?
        var lines: [(Int, [String])] = []
        for line in file.lines {
            func failure(_ cause: String) -> ConfigFailure { ConfigFailure(path: path, line: line.number, cause: cause) }
            let option = "--" + line.name
            if ["config", "no-config", "help", "version"].contains(line.name) {
                throw failure("\(option) cannot be set in a config file")
            }
            switch table.kind(of: line.name) {
            case .flag:
                guard line.value == nil else { throw failure("\(option) takes no value: write \(line.name) alone") }
                lines.append((line.number, [option]))
            case .option:
                guard let value = line.value else { throw failure("\(option) needs a value: write \(line.name) = VALUE") }
                lines.append((line.number, [option + "=" + value]))
            case nil, .positional:
                // An option only another command takes (`jobs` when running `afget request`).
                let others = described ?? commands.map(OptionTable.init)
                described = others
                guard others.contains(where: { $0.kind(of: line.name) != nil }) else {
                    throw failure("afget has no option \(option)")
                }
            }
        }
        return ConfigArguments(
            command: named == nil ? [] : [arguments[0]], lines: lines,
            commandLine: Array(arguments.dropFirst(named == nil ? 0 : 1)), path: path)
    }

    /// The command, the first `count` config lines, then the command line.
    func merged(lines count: Int? = nil) -> [String] {
        command + lines.prefix(count ?? lines.count).flatMap(\.arguments) + commandLine
    }

    /// The line whose option the parser refuses: the first prefix of the file that does not
    /// parse. Nil when the command line alone fails, which is then its own fault.
    func lineRefused(by parses: ([String]) -> Bool) -> Int? {
        guard parses(merged(lines: 0)) else { return nil }
        for count in 1...max(lines.count, 1) where count <= lines.count && !parses(merged(lines: count)) {
            return lines[count - 1].number
        }
        return nil
    }
}
