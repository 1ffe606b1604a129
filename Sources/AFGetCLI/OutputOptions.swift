import AFGetKit
import ArgumentParser

/// Where downloads go.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .long], help: ArgumentHelp(
        "Destination for a single URL; \"-\" streams the body to stdout.", valueName: "path"))
    var output: String?

    @Option(name: [.short, .customLong("dir")], help: ArgumentHelp(
        "Directory for downloads, created if missing (default: the current directory).", valueName: "dir"))
    var directory: String?

    @Option(name: .customLong("on-exists"), help: ArgumentHelp(
        "When the destination exists: skip, overwrite, rename or error.", valueName: "mode"))
    var onExists: OnExistsPolicy = .skip

    @Flag(name: [.customShort("J"), .customLong("content-disposition")], help: ArgumentHelp(
        "Name files as the server's Content-Disposition says (made safe; not with -o or out=)."))
    var namesFromServer = false

    func validate(urlCount: Int, hasList: Bool) throws {
        if output != nil && (urlCount > 1 || hasList) {
            throw ValidationError("-o/--output takes a single URL; use -d/--dir for several, or out= in a list")
        }
        if output != nil && directory != nil {
            throw ValidationError("-o/--output and -d/--dir cannot be combined")
        }
        if output == "" {
            throw ValidationError("-o/--output is empty; give a file name")
        }
        if let output, output != "-", Self.namesADirectory(output) {
            throw ValidationError("-o/--output \"\(output)\" names a directory, not a file; use -d/--dir to download into it")
        }
    }

    /// A path ending in "/", or whose last part is "." or "..": there is no file name to create,
    /// and finding that out only at the final rename would waste the download.
    static func namesADirectory(_ path: String) -> Bool {
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return last.isEmpty || last == "." || last == ".."
    }

    var target: OutputTarget {
        switch output {
        case "-": .standardOutput
        case let path?: .path(path)
        case nil: .directory(directory ?? ".")
        }
    }
}

extension OnExistsPolicy: ExpressibleByArgument {}
