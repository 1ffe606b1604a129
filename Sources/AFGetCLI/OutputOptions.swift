import AFGetSupport
import AFGetKit
import ArgumentParser
import Glibc

/// Where downloads go.
struct OutputOptions: ParsableArguments {
    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "Destination for a single URL; \"-\" streams the body to stdout.", valueName: "path"), completion: .file())
    var output: String?

    @Option(
        name: [.short, .customLong("dir"), .customShort("P"), .customLong("output-dir")],
        help: ArgumentHelp(
            "Directory for downloads, created if missing (default: the current directory); -P and --output-dir as wget and curl call it.",
            valueName: "dir"), completion: .directory)
    var directory: String?

    @Flag(
        name: [.customShort("O"), .customLong("remote-name")],
        help: "Accepted for curl users: files are named after the URL already.")
    var remoteName = false

    @Option(
        name: .customLong("on-exists"),
        help: ArgumentHelp(
            "What to do when the destination exists; update downloads only when the server's copy is newer or of another size.",
            valueName: "mode"))
    var onExists: OnExistsPolicy = .skip

    @Flag(
        name: [.customShort("J"), .customLong("content-disposition"), .customLong("remote-header-name")],
        help: ArgumentHelp(
            "Name files as the server's Content-Disposition says (made safe; not with -o or out=); "
                + "--remote-header-name as curl calls it."))
    var namesFromServer = false

    @Option(
        name: .customLong("on-conflict"),
        help: ArgumentHelp(
            "When two URLs of the run would write one file: error (default: the run does not start) or rename "
                + "(the later one is saved as name.1.ext, name.2.ext, ...).", valueName: "mode"))
    var onConflict: ConflictPolicy = .error

    func validate(urlCount: Int, hasList: Bool) throws {
        if output != nil && (urlCount > 1 || hasList) {
            throw ValidationError("-o/--output takes a single URL; use -d/--dir for several, or out= in a list")
        }
        guard let output, output != "-" else {
            if output != nil && directory != nil {
                throw ValidationError("-o - writes to standard output, where -d/--dir has no file to hold: give one")
            }
            return
        }
        try Self.checkNamesAFile(output, else: "use -d/--dir to download into it")
        // As curl's --output-dir: -d holds the file -o names, which is then relative.
        if let directory, output.hasPrefix("/") {
            throw ValidationError("-o/--output \"\(output)\" is absolute, so -d/--dir \"\(directory)\" cannot hold it: give one")
        }
        // Found out only at the final rename, it would waste the transfer.
        if let path = filePath, fileKind(at: path, followingSymlinks: true) == S_IFDIR {
            throw ValidationError(
                "-o/--output \"\(path)\" is a directory; use -d \(ShellWord.quoted(path)) to download into it")
        }
    }

    /// Refuses an `-o` path with no file name to create: empty, ending in "/", or whose last
    /// part is "." or "..". Found out only at the final rename, it would waste the transfer.
    static func checkNamesAFile(_ path: String, else advice: String) throws {
        guard !path.isEmpty else { throw ValidationError("-o/--output is empty; give a file name") }
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if last.isEmpty || last == "." || last == ".." {
            throw ValidationError("-o/--output \"\(path)\" names a directory, not a file; \(advice)")
        }
    }

    /// The file `-o` names, inside `-d` when both are given; nil without `-o` or for `-o -`.
    private var filePath: String? {
        guard let output, output != "-" else { return nil }
        return directory.map { joinPath($0, output) } ?? output
    }

    var target: OutputTarget {
        switch filePath {
        case nil where output == "-": .standardOutput
        // `-o /dev/stdout` is `-o -`, also when standard output is a file (`OutputStream.named`).
        case let path? where OutputStream.named(path)?.descriptor == 1: .standardOutput
        case let path?: .path(path)
        case nil: .directory(directory ?? ".")
        }
    }
}

extension OnExistsPolicy: ExpressibleByArgument {}
extension ConflictPolicy: ExpressibleByArgument {}
