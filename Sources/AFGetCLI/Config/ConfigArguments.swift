/// The command line with a config file's options put before the command line's own, so that
/// what is typed wins: a config line is left out when the command line gives its option (or
/// one of its alternatives, such as `--progress` for `quiet`), unless the option adds up when
/// repeated (`--header`).
struct ConfigArguments {
    /// The subcommand's name when the command line gave it, kept in front.
    let command: [String]
    /// Each config line's arguments, in file order.
    let lines: [(number: Int, arguments: [String])]
    let commandLine: [String]
    let path: String

    /// Options that choose one thing between them (by their first long names): the command
    /// line's choice replaces the file's.
    private static let alternatives: [Set<String>] = [
        ["quiet", "progress"], ["restart", "no-restart"], ["pretty", "raw", "auto-format"],
        ["form", "json", "plist", "multipart"], ["output", "dir"], ["location", "no-follow"],
        ["netrc", "netrc-file"], ["data", "data-binary"], ["on-exists", "no-clobber"],
    ]

    /// Nil when no config applies: none chosen, or help and version, which read no file.
    static func make(_ arguments: [String], environment: [String: String]) throws(ConfigFailure) -> ConfigArguments? {
        let options = arguments.prefix { $0 != "--" }
        if options.first == "help" || options.contains(where: ["--help", "-h", "--version"].contains) { return nil }
        guard let path = ConfigSelection(arguments: arguments, environment: environment).path else { return nil }
        let file = try ConfigFile.read(path)
        let commands = AFGetCommand.configuration.subcommands
        let named = commands.first { $0.configuration.commandName == arguments.first }
        let commandLine = Array(arguments.dropFirst(named == nil ? 0 : 1))
        let table = OptionTable(named ?? DownloadCommand.self)
        let typed = table.optionsNamed(in: commandLine)
        // The other commands are described only if a line names an option this one lacks.
        var described: [OptionTable]?
        var lines: [(Int, [String])] = []
        for line in file.lines {
            func failure(_ cause: String) -> ConfigFailure { ConfigFailure(path: path, line: line.number, cause: cause) }
            let option = "--" + line.name
            if ["config", "no-config", "help", "version"].contains(line.name) {
                throw failure("\(option) cannot be set in a config file")
            }
            let name = table.canonicalName(line.name)
            let replaced = typed.contains(name) || alternatives.contains { $0.contains(name) && !$0.isDisjoint(with: typed) }
            switch table.kind(of: line.name) {
            case .flag:
                guard line.value == nil else { throw failure("\(option) takes no value: write \(line.name) alone") }
                if !replaced { lines.append((line.number, [option])) }
            case .option(let repeats):
                guard let value = line.value else { throw failure("\(option) needs a value: write \(line.name) = VALUE") }
                if !replaced || repeats { lines.append((line.number, [option + "=" + value])) }
            case nil:
                // An option only another command takes (`jobs` when running `afget request`).
                let others = described ?? commands.map(OptionTable.init)
                described = others
                guard others.contains(where: { $0.kind(of: line.name) != nil }) else {
                    throw failure("afget has no option \(option)")
                }
            }
        }
        return ConfigArguments(command: named == nil ? [] : [arguments[0]], lines: lines, commandLine: commandLine, path: path)
    }

    /// The command, the first `count` config lines, then the command line.
    func merged(lines count: Int? = nil) -> [String] {
        command + lines.prefix(count ?? lines.count).flatMap(\.arguments) + commandLine
    }

    /// The config line the parser refuses, and what it says: the first line that, added to the
    /// lines before it and the command line, makes the parser say something the command line
    /// alone does not. `refusal` is the parser's complaint about some arguments, nil for none.
    func lineRefused(by refusal: ([String]) -> String?) -> (line: Int, message: String)? {
        let commandLineAlone = refusal(merged(lines: 0))
        for count in lines.indices.map({ $0 + 1 }) {
            if let message = refusal(merged(lines: count)), message != commandLineAlone {
                return (lines[count - 1].number, message)
            }
        }
        return nil
    }
}
