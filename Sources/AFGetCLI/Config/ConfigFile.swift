import AFGetSupport
import FoundationEssentials
import Glibc

/// A config file's lines, each a long option: `jobs = 8`, `header = X-Team: data`, `quiet`.
/// `#` starts a comment line; a value may be quoted ("a b") to keep its outer spaces.
struct ConfigFile: Equatable {
    struct Line: Equatable {
        let number: Int
        let name: String
        let value: String?
    }

    let path: String
    let lines: [Line]

    /// Reads and parses the file; a line that is not an option is a failure naming it.
    static func read(_ path: String) throws(ConfigFailure) -> ConfigFile {
        // Read with afget's own loop: Foundation's FileManager.contents(atPath:) leaks its 4 KiB
        // buffer for an empty file (found by the config-file fuzz target's LeakSanitizer).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ConfigFailure(path: path, line: nil, cause: "cannot be read") }
        defer { close(descriptor) }
        guard case .success(var bytes) = readAll(descriptor) else {
            throw ConfigFailure(path: path, line: nil, cause: "cannot be read")
        }
        // A byte order mark, as Windows editors save UTF-8, is not part of the first line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigFailure(path: path, line: nil, cause: "is not UTF-8 text")
        }
        return try ConfigFile(path: path, text: text)
    }

    init(path: String, text: String) throws(ConfigFailure) {
        self.path = path
        var lines: [Line] = []
        // CR LF is one Character in Swift, so lines are split on any line end, not on "\n".
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            if line.isEmpty || line.hasPrefix("#") { continue }
            lines.append(try Self.parse(line, number: index + 1, path: path))
        }
        self.lines = lines
    }

    /// `name = value`, `name value` or `name` alone; the leading `--` is allowed, as people
    /// copy options from a command line.
    private static func parse(_ line: String, number: Int, path: String) throws(ConfigFailure) -> Line {
        let body = line.hasPrefix("--") ? line.dropFirst(2) : Substring(line)
        let name = body.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
        guard let first = name.first, first.isLetter else {
            // Only the line's start is quoted: the rest may be a secret (`-u ann:pw`, as a .curlrc has it).
            let start = line.prefix { $0 == "-" || $0.isLetter || $0.isNumber }.prefix(20)
            throw ConfigFailure(path: path, line: number, cause: "\"\(start)\" is not an option name (write name = value)")
        }
        var rest = body.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
        if rest.hasPrefix("=") { rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" } }
        guard !rest.isEmpty || !body.dropFirst(name.count).contains("=") else {
            throw ConfigFailure(path: path, line: number, cause: "\(name) has an empty value")
        }
        if rest.isEmpty { return Line(number: number, name: String(name), value: nil) }
        return Line(number: number, name: String(name), value: try unquoted(rest, number: number, path: path))
    }

    private static func unquoted(_ value: Substring, number: Int, path: String) throws(ConfigFailure) -> String {
        guard value.hasPrefix("\"") else { return String(value) }
        guard value.count >= 2, value.hasSuffix("\"") else {
            throw ConfigFailure(path: path, line: number, cause: "a quoted value does not end with \"")
        }
        var result = ""
        var escaping = false
        for character in value.dropFirst().dropLast() {
            if escaping || character != "\\" {
                result.append(character)
                escaping = false
            } else {
                escaping = true
            }
        }
        // `"abc\"`: the last quote is escaped, so the value never ends.
        guard !escaping else {
            throw ConfigFailure(path: path, line: number, cause: "a quoted value does not end with \"")
        }
        return result
    }
}

/// A config file afget cannot use: exit 2, naming the file and, where it is one, the line.
struct ConfigFailure: Error, Equatable {
    let path: String
    let line: Int?
    let cause: String

    var message: String {
        let place = line.map { "\(path):\($0)" } ?? path
        return "config file \(place): \(cause)"
    }
}
