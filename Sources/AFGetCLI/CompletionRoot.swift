import AFGetSupport
import ArgumentParser

/// The command tree the shell completion scripts are generated from
/// (`afget --generate-completion-script bash|zsh|fish`): afget's own commands, with the default
/// command's options also at the root. `afget URL` means `afget download URL`, but
/// ArgumentParser's generators know nothing of a default subcommand: from `AFGetCommand` they
/// offer a bare `afget` only --help, --version and the command names. Never run.
struct CompletionRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: AFGetCommand.configuration.commandName,
        version: AFGetVersion.current,
        subcommands: AFGetCommand.configuration.subcommands
    )

    // No URL argument here: the generators would take every word for one, a command's name
    // too, and `afget upload <TAB>` would no longer reach upload's completions.
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Batch") var batch: BatchOptions
    @OptionGroup var options: DownloadingOptions

    /// Whether `arguments` ask for a completion script (ArgumentParser sees the option
    /// anywhere), which this tree answers.
    static func isAsked(by arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains {
            $0 == "--generate-completion-script" || $0.hasPrefix("--generate-completion-script=")
        }
    }

    /// The generated script, taught one thing more: a first word that is no command's name is
    /// a URL, so what follows it is completed as `download`'s (`afget URL --stall<TAB>`). Fish's
    /// script does that already. One replacement for bash's script and one for zsh's (each
    /// text is found only in its own shell's), checked by the tests.
    static func script(generated: String) -> String {
        generated.replacing(
            """
                    # Offer subcommand completions
                    COMPREPLY+=($(compgen -W '\(commandNames)' -- "${cur}"))
            """,
            with: """
                        if [[ "${#unparsed_words[@]}" -eq 0 ]]; then
                            # Offer subcommand completions
                            COMPREPLY+=($(compgen -W '\(commandNames)' -- "${cur}"))
                        else
                            # A URL: the rest is the default command's
                            _afget_download
                        fi
                """
        ).replacing(
            """
                    "_afget_${words[1]}" && ret=0
                        ;;
                    esac
            """,
            with: """
                        "_afget_${words[1]}" && ret=0
                            ;;
                        *)
                            # A URL: the rest is the default command's
                            _afget_download && ret=0
                            ;;
                        esac
                """)
    }

    /// The names the generated scripts offer as commands, in their order.
    private static var commandNames: String {
        (configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]).joined(separator: " ")
    }
}
