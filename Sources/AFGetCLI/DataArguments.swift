import AFGetRequest

/// curl joins its body options in the order typed, across options: `-d a=1 --data-urlencode
/// 'b=x y' -d c=3` sends `a=1&b=x%20y&c=3`. The parser keeps the values of one option in order
/// but not which of its names each came under, so before parsing, each value given to
/// `--data-raw`, `--data-binary`, `--data-urlencode` or curl's `--json DATA` on `afget request`'s
/// command line is marked with that name (a prefix no argument can hold: it starts with a NUL
/// byte). `-d` and `--data` values stay as they are.
///
/// `--json` is also afget's flag that sends the items as JSON (`--json URL a=1`): it is curl's
/// `--json DATA` when written `--json=DATA`, or when the next word starts as JSON data does
/// (`{`, `[`, `"`, white space: curl's own example continues a document with ` "coffee" }`) or
/// names a file (`@`), which no URL, method or item does.
enum DataArguments {
    static func marked(_ arguments: [String]) -> [String] {
        guard arguments.first == "request" else { return arguments }
        var result = [arguments[0]]
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                result += arguments[index...]
                break
            }
            let (name, attached) = split(word)
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if let kind = kind(named: name, attached: attached, next: next) {
                if let attached {
                    result.append("--data=" + mark(kind, attached))
                } else if let next {
                    result += ["--data", mark(kind, next)]
                    index += 1
                } else {
                    result.append(word)  // the parser says the value is missing
                }
            } else {
                result.append(word)
            }
            index += 1
        }
        return result
    }

    /// The kind and value of a marked argument; nil for one not marked.
    static func unmarked(_ argument: String) -> (DataPiece.Kind, String)? {
        guard argument.hasPrefix("\u{0}") else { return nil }
        let parts = argument.dropFirst().split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = DataPiece.Kind(rawValue: String(parts[0])) else { return nil }
        return (kind, String(parts[1]))
    }

    private static func mark(_ kind: DataPiece.Kind, _ value: String) -> String {
        "\u{0}\(kind.rawValue)\u{0}\(value)"
    }

    /// `--name=value` as its name and value; any other word as itself, with no value.
    private static func split(_ word: String) -> (name: String, attached: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// The kind the option `name` gives the value that follows it; nil for a word that is not
    /// one of them (`-d` and `--data` need no mark, `--json` without DATA is afget's flag).
    private static func kind(named name: String, attached: String?, next: String?) -> DataPiece.Kind? {
        switch name {
        case "--data-raw": .raw
        case "--data-binary": .binary
        case "--data-urlencode": .urlencode
        case "--json" where attached != nil || next.map(isJSONData) == true: .json
        default: nil
        }
    }

    private static func isJSONData(_ word: String) -> Bool {
        guard let first = word.unicodeScalars.first else { return false }
        return "{[\"@".unicodeScalars.contains(first) || first.properties.isWhitespace
    }
}
