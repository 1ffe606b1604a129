/// The parser's "Did you mean" kept only when it is a likely typo. ArgumentParser suggests any
/// option fewer than four edits away, so `--foo` was offered `--dir` and `--cat` `--auth`:
/// noise that sends people to the wrong option. A suggestion stays when it is a few edits from
/// what was typed, relative to its length (a swapped pair of letters is one), or when one name
/// starts the other (`--ret` for `--retry`).
enum CloseMatch {
    /// The parser's message with its suggestion left out unless it is close.
    static func trimmed(_ message: String) -> String {
        let opening = "Unknown option '"
        let asking = "'. Did you mean '"
        guard message.hasPrefix(opening), message.hasSuffix("'?"), let middle = message.firstRange(of: asking) else {
            return message
        }
        let typed = message[message.index(message.startIndex, offsetBy: opening.count)..<middle.lowerBound]
        let suggested = message[middle.upperBound..<message.index(message.endIndex, offsetBy: -2)]
        return isClose(typed: String(typed), suggested: String(suggested)) ? message : "\(opening)\(typed)'"
    }

    /// Whether `suggested` is likely what `typed` meant; both as written (`--foo`, `-nc`).
    static func isClose(typed: String, suggested: String) -> Bool {
        let typedName = Array(typed.drop { $0 == "-" })
        let suggestedName = Array(suggested.drop { $0 == "-" })
        if typedName.count >= 3 && (suggestedName.starts(with: typedName) || typedName.starts(with: suggestedName)) {
            return true
        }
        return distance(typedName, suggestedName) <= min(2, max(1, typedName.count / 3))
    }

    /// Edits from one name to the other: a letter inserted, removed, changed, or two
    /// neighbours swapped (the optimal string alignment distance).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
