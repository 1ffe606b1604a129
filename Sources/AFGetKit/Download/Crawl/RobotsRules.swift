import AFGetRequest

/// A host's robots.txt as RFC 9309 reads it, for the user agent "afget": the group naming
/// afget (or, without one, the group for "*"), whose `Allow` and `Disallow` rules are matched
/// on a URL's path and query, the longest match winning and `Allow` winning a tie; `*` in a
/// rule matches any run of characters and a final `$` the end. `Crawl-delay`, which RFC 9309
/// leaves out and many servers still give, is kept as the host's pace.
public struct RobotsRules: Sendable, Equatable {
    struct Rule: Sendable, Equatable {
        let allows: Bool
        /// Percent-encoding normalized, as the URLs it is matched on are.
        let pattern: String
    }

    let rules: [Rule]
    /// Seconds between two requests to the host, when the group asks for a pace.
    public let crawlDelay: Double?

    /// Everything allowed: robots.txt answered 4xx (RFC 9309 §2.3.1.3), or `--robots off`.
    public static let allowAll = RobotsRules(rules: [], crawlDelay: nil)
    /// Nothing allowed: robots.txt could not be had for a 5xx or a network failure (RFC 9309
    /// §2.3.1.4: "MUST assume complete disallow").
    public static let disallowAll = RobotsRules(rules: [Rule(allows: false, pattern: "/")], crawlDelay: nil)

    /// RFC 9309 §2.5: a crawler must read at least 500 KiB; what follows is not read.
    static let largest = 500 << 10

    /// After robots.txt could not be had: a 4xx status allows everything; a 5xx or no answer
    /// at all (`status` nil) allows nothing.
    public static func forFailedFetch(status: Int?) -> RobotsRules {
        guard let status, (400..<500).contains(status) else { return .disallowAll }
        return .allowAll
    }

    init(rules: [Rule], crawlDelay: Double?) {
        self.rules = rules
        self.crawlDelay = crawlDelay
    }

    /// The product token afget's groups are found by.
    static let agent = "afget"

    /// The rules of `text` (robots.txt's bytes as UTF-8) that apply to afget.
    public init(parsing text: String) {
        var groups: [(agents: [String], rules: [Rule], delay: Double?)] = []
        var readingAgents = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.prefix { $0 != "#" }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingWhitespace().lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            switch key {
            case "user-agent":
                if !readingAgents { groups.append(([], [], nil)) }
                readingAgents = true
                groups[groups.count - 1].agents.append(value.lowercased())
            case "allow", "disallow":
                readingAgents = false
                // Rules before any user-agent line belong to no group; an empty Disallow allows all.
                guard !groups.isEmpty, !value.isEmpty else { continue }
                groups[groups.count - 1].rules.append(
                    Rule(allows: key == "allow", pattern: PercentNormalizing.normalized(value)))
            case "crawl-delay":
                readingAgents = false
                guard !groups.isEmpty, let seconds = Double(value), seconds >= 0, seconds.isFinite else { continue }
                groups[groups.count - 1].delay = seconds
            default:
                // Sitemap and other lines end no group (RFC 9309 §2.2.4: they are ignored).
                continue
            }
        }
        // RFC 9309 §2.2.1: the groups that name afget, combined; else those for "*".
        let own = groups.filter { $0.agents.contains(where: Self.namesAfget) }
        let chosen = own.isEmpty ? groups.filter { $0.agents.contains("*") } : own
        self.init(rules: chosen.flatMap(\.rules), crawlDelay: chosen.compactMap(\.delay).max())
    }

    /// A user-agent line's value names afget by its product token, in any case ("afget",
    /// "afget/1.0").
    private static func namesAfget(_ value: String) -> Bool {
        value == agent || value.hasPrefix(agent + "/")
    }

    /// Whether `url` may be fetched.
    public func allows(_ url: CrawlURL) -> Bool {
        allows(pathAndQuery: url.query.map { "\(url.path)?\($0)" } ?? url.path)
    }

    func allows(pathAndQuery target: String) -> Bool {
        var best: Rule?
        for rule in rules where Self.matches(rule.pattern, target) {
            guard let chosen = best else {
                best = rule
                continue
            }
            let (length, bestLength) = (rule.pattern.utf8.count, chosen.pattern.utf8.count)
            if length > bestLength || length == bestLength && rule.allows { best = rule }
        }
        return best?.allows ?? true
    }

    /// `pattern` matches from the start of `target`: `*` any run of bytes, a final `$` the end.
    static func matches(_ pattern: String, _ target: String) -> Bool {
        var pattern = Array(pattern.utf8)
        let anchored = pattern.last == UInt8(ascii: "$")
        if anchored { pattern.removeLast() }
        let pieces = pattern.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
        let target = Array(target.utf8)
        var position = 0
        for (number, piece) in pieces.enumerated() {
            if number == 0 {
                guard target.count >= piece.count, target[0..<piece.count].elementsEqual(piece) else { return false }
                position = piece.count
                continue
            }
            let isLast = number == pieces.count - 1
            if isLast && anchored {
                // The last piece must end the target, after what matched so far.
                guard target.count - position >= piece.count, target.suffix(piece.count).elementsEqual(piece) else {
                    return false
                }
                return true
            }
            guard let found = firstRange(of: piece, in: target, from: position) else { return false }
            position = found
        }
        return !anchored || position == target.count
    }

    /// Where `piece` ends at its first occurrence in `target` at or after `start`.
    private static func firstRange(of piece: ArraySlice<UInt8>, in target: [UInt8], from start: Int) -> Int? {
        if piece.isEmpty { return start }
        guard target.count >= piece.count else { return nil }
        var index = start
        while index + piece.count <= target.count {
            if target[index..<index + piece.count].elementsEqual(piece) { return index + piece.count }
            index += 1
        }
        return nil
    }
}
