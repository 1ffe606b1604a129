import AFGetSupport
import Glibc

/// `-A` and `-R` as wget reads them: each element of the comma-separated lists is a glob
/// matched on the whole file name by fnmatch(3) when it holds `*`, `?`, `[` or `]`, and a
/// suffix of the name otherwise (`-A pdf,iso`).
struct NamePatterns: Sendable, Equatable {
    let patterns: [String]

    /// The lists as given (`-A a,b -A c`), split at their commas.
    init(_ lists: [String]) {
        patterns = lists.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
    }

    var isEmpty: Bool { patterns.isEmpty }

    func matchesAny(_ name: String) -> Bool {
        patterns.contains { pattern in
            guard pattern.contains(where: { "*?[]".contains($0) }) else { return name.hasSuffix(pattern) }
            return fnmatch(pattern, name, 0) == 0
        }
    }
}

/// A POSIX extended regular expression (`--accept-regex`, `--reject-regex`), compiled once by
/// regcomp(3) and matched on whole URLs by regexec(3). A compiled pattern is C memory of the
/// crawl's own thread: it is made there from the pattern's text, never shared.
final class URLPattern {
    private let compiled: UnsafeMutablePointer<regex_t>

    /// The pattern `option` gave, compiled; refused in libc's words when it cannot be.
    init(_ pattern: String, option: String) throws(TransferFailure) {
        let made = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
        let status = regcomp(made, pattern, REG_EXTENDED | REG_NOSUB)
        guard status == 0 else {
            var words = [UInt8](repeating: 0, count: 256)
            words.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { _ = regerror(status, made, $0.baseAddress, $0.count) }
            }
            made.deallocate()
            throw TransferFailure(
                .input(
                    .patternInvalid(
                        option: option, pattern: pattern, said: String(decoding: words.prefix { $0 != 0 }, as: UTF8.self))))
        }
        // Set only once compiled: a refused pattern leaves nothing for deinit to free.
        compiled = made
    }

    deinit {
        regfree(compiled)
        compiled.deallocate()
    }

    func matches(_ text: String) -> Bool {
        regexec(compiled, text, 0, nil, 0) == 0
    }
}
