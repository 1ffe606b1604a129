import AFGetKit
import AFGetSupport
import ArgumentParser

/// A recursive download, with wget's spellings where afget's own letters do not already mean
/// something else: `-A` is curl's `--user-agent`, `-H` a header, `-k` `--insecure` and `-m`
/// `--max-time` in afget, so wget's are `--accept`, `--span-hosts`, `--convert-links` and
/// `--mirror`, and `PeerHabits` answers wget's letters with these names.
struct CrawlOptions: ParsableArguments {
    @Flag(name: [.customShort("r"), .customLong("recursive")], help: "Follow the links of the pages fetched.")
    var recursive = false

    @Option(
        name: [.customShort("l"), .customLong("level")],
        help: ArgumentHelp("How many links from a start page to follow, or inf (default: 5).", valueName: "n|inf"))
    var level: String?

    @Flag(
        name: [.customLong("no-parent"), .customLong("np", withSingleDash: true)],
        help: "Follow no page above the start URL's directory (what a page needs is still fetched).")
    var noParent = false

    @Option(
        name: .customLong("accept"),
        help: ArgumentHelp(
            "Keep only files whose name matches one of these globs or suffixes (comma-separated, repeatable); "
                + "pages are still read for links.", valueName: "list"))
    var accept: [String] = []

    @Option(
        name: [.customShort("R"), .customLong("reject")],
        help: ArgumentHelp(
            "Keep no file whose name matches one of these globs or suffixes (-R \"index.html*\" drops the listings).",
            valueName: "list"))
    var reject: [String] = []

    @Option(
        name: .customLong("accept-regex"),
        help: ArgumentHelp("Fetch only URLs this POSIX extended regex matches.", valueName: "regex"))
    var acceptRegex: String?

    @Option(
        name: .customLong("reject-regex"),
        help: ArgumentHelp("Fetch no URL this POSIX extended regex matches.", valueName: "regex"))
    var rejectRegex: String?

    @Flag(name: .customLong("span-hosts"), help: "Follow links to other hosts (wget's -H).")
    var spanHosts = false

    @Option(
        name: [.customShort("D"), .customLong("domains")],
        help: ArgumentHelp("With --span-hosts, only these domains and their subdomains (comma-separated).", valueName: "list"))
    var domains: [String] = []

    @Flag(
        name: [.customLong("no-host-directories"), .customLong("nH", withSingleDash: true)],
        help: "Put no host directory under -d.")
    var noHostDirectories = false

    @Option(name: .customLong("cut-dirs"), help: ArgumentHelp("Leave out the first N directories of each path.", valueName: "n"))
    var cutDirectories = 0

    @Flag(
        name: [.customLong("no-directories"), .customLong("nd", withSingleDash: true)],
        help: "Put every file straight into -d.")
    var noDirectories = false

    @Flag(
        name: [.customShort("p"), .customLong("page-requisites")],
        help: "Fetch what each page needs to be shown (images, styles, scripts, frames), one level beyond -l.")
    var pageRequisites = false

    @Flag(
        name: .customLong("convert-links"),
        help:
            "Once the crawl is over, point the pages' links at the files fetched (relative), the rest at the server (wget's -k).")
    var convertLinks = false

    @Option(name: .customLong("robots"), help: ArgumentHelp("Obey robots.txt and <meta name=robots>.", valueName: "on|off"))
    var robots: Switch?

    @Option(
        name: .customShort("e"),
        help: ArgumentHelp("wget's -e robots=off (and robots=on): the one wgetrc command afget takes.", valueName: "command"))
    var commands: [String] = []

    enum Switch: String, ExpressibleByArgument {
        case on, off
    }

    /// Whether any option asks for a crawl: `-r`, or `-p` alone (a page and what it needs).
    var asksForCrawl: Bool { recursive || pageRequisites }

    func validate() throws {
        _ = try parsedLevel()
        guard cutDirectories >= 0 else { throw ValidationError("--cut-dirs must be 0 or more") }
        _ = try robotsFromCommands()
        for (option, pattern) in [("--accept-regex", acceptRegex), ("--reject-regex", rejectRegex)] {
            guard let pattern else { continue }
            do {
                try CrawlSettings.checkPattern(pattern, option: option)
            } catch {
                throw ValidationError(error.message)
            }
        }
        if !asksForCrawl, let option = crawlOnlyOption {
            throw ValidationError("\(option) applies to a recursive download: add -r (or -p for a page and what it needs)")
        }
    }

    /// The first option given that only a crawl uses.
    private var crawlOnlyOption: String? {
        let given: [(Bool, String)] = [
            (level != nil, "-l/--level"), (noParent, "-np/--no-parent"), (!accept.isEmpty, "--accept"),
            (!reject.isEmpty, "-R/--reject"), (acceptRegex != nil, "--accept-regex"), (rejectRegex != nil, "--reject-regex"),
            (spanHosts, "--span-hosts"), (!domains.isEmpty, "-D/--domains"), (noHostDirectories, "-nH"),
            (cutDirectories != 0, "--cut-dirs"), (noDirectories, "-nd"), (convertLinks, "--convert-links"),
        ]
        return given.first { $0.0 }?.1
    }

    /// `-l N`, `-l inf` (and wget's `-l 0`, which is inf too); nil for inf.
    private func parsedLevel() throws -> Int? {
        guard let level else { return CrawlSettings.defaultLevel }
        if level == "inf" || level == "0" { return nil }
        guard let count = Int(level), count > 0 else { throw ValidationError("-l/--level \(level): give a count or inf") }
        return count
    }

    /// `-e robots=off`: nil when no `-e` says.
    private func robotsFromCommands() throws -> Bool? {
        var obeys: Bool?
        for command in commands {
            let words = command.replacing(" ", with: "").lowercased()
            switch words {
            case "robots=off", "robots=0", "robots=no": obeys = false
            case "robots=on", "robots=1", "robots=yes": obeys = true
            default:
                throw ValidationError("-e \(command): afget takes wget's robots=off and robots=on only")
            }
        }
        return obeys
    }

    /// The crawl asked for, with files under `directory`; `mirror` for wget's `--mirror`
    /// (`-r -l inf`). nil when no option asks for one.
    func settings(directory: String?, mirror: Bool = false) throws -> CrawlSettings? {
        guard asksForCrawl || mirror else { return nil }
        var settings = CrawlSettings()
        settings.recursive = recursive || mirror
        settings.level = mirror && level == nil ? nil : try parsedLevel()
        settings.noParent = noParent
        settings.accept = accept
        settings.reject = reject
        settings.acceptRegex = acceptRegex
        settings.rejectRegex = rejectRegex
        settings.spanHosts = spanHosts
        settings.domains = domains
        settings.pageRequisites = pageRequisites
        settings.convertsLinks = convertLinks
        settings.obeysRobots = try robotsFromCommands() ?? (robots.map { $0 == .on } ?? true)
        settings.layout = CrawlLayout(
            directory: directory ?? ".", hostDirectories: !noHostDirectories, cutDirectories: cutDirectories,
            directories: !noDirectories)
        return settings
    }
}
