import FoundationEssentials

/// Which config file a run reads: `--config FILE`, none with `--no-config`, otherwise
/// `$XDG_CONFIG_HOME/afget/config` (`~/.config/afget/config`) when it exists.
enum ConfigSelection: Equatable {
    case none
    case chosen(String)
    case defaultFile(String)

    init(arguments: [String], environment: [String: String]) {
        var chosen: String?
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            if argument == "--no-config" {
                self = .none
                return
            }
            if argument == "--config", index + 1 < arguments.count {
                chosen = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--config=") {
                chosen = String(argument.dropFirst("--config=".count))
            }
            index += 1
        }
        if let chosen {
            self = .chosen(chosen)
        } else if let path = Self.defaultPath(environment), FileManager.default.fileExists(atPath: path) {
            self = .defaultFile(path)
        } else {
            self = .none
        }
    }

    /// The XDG base directory rule: a relative `XDG_CONFIG_HOME` is ignored.
    static func defaultPath(_ environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/afget/config" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/afget/config"
    }

    var path: String? {
        switch self {
        case .none: nil
        case .chosen(let path), .defaultFile(let path): path
        }
    }
}
