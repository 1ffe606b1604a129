import ArgumentParser

/// Which config file is read. `Entry` acts on these before parsing (`ConfigSelection`); they
/// are declared here so that help, completions and the parser know them.
struct ConfigFileOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Read options from this file instead of $XDG_CONFIG_HOME/afget/config (~/.config/afget/config).",
            valueName: "file"),
        completion: .file())
    var file: String?

    @Flag(name: .customLong("no-config"), help: "Read no config file.")
    var ignoresFile = false
}
