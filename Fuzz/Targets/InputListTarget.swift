import AFGetKit
import AFGetRequest

/// An input list (`-i`), aria2c's format: every line ends up in an entry or in a problem that
/// names its line and cause, and what an entry holds is what afget will act on.
enum InputListTarget: FuzzTarget {
    static let name = "input-list"

    static func fuzz(_ input: [UInt8]) {
        let list = InputList(parsing: input, name: "list.txt")
        let lineCount = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        for problem in list.problems {
            expect(problem.item.hasPrefix("list.txt:"), "a problem naming no line: \(problem.item)")
            let number = Int(problem.item.dropFirst("list.txt:".count)) ?? 0
            expect((1...lineCount).contains(number), "a problem on line \(number) of \(lineCount)")
            expect(!problem.failure.message.isEmpty, "a problem without a cause")
        }
        var previousLine = 0
        for entry in list.entries {
            expect(entry.source == "list.txt:\(entry.line)", "entry source \(entry.source) for line \(entry.line)")
            expect(entry.line > previousLine && entry.line <= lineCount, "entry line \(entry.line)")
            previousLine = entry.line
            check(entry)
        }
        // Lines ending in CR LF read as the same list.
        if !input.contains(UInt8(ascii: "\r")) {
            let crlf = input.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
            let again = InputList(parsing: crlf, name: "list.txt")
            expect(again.entries == list.entries, "CR LF line ends give other entries")
            expect(again.problems == list.problems, "CR LF line ends give other problems")
        }
    }

    private static func check(_ entry: InputList.Entry) {
        expect(!entry.url.isEmpty && !entry.url.hasPrefix("#"), "an entry for \"\(entry.url)\"")
        expect(entry.url.trimmingWhitespace() == entry.url, "a URL with outer blanks")
        expect(
            entry.parsedURL.isHTTP || entry.parsedURL.isRemoteFile, "an entry of scheme \(entry.parsedURL.scheme)")
        // A line's tab-separated URLs: each a URL of its own, without blanks around it or a tab
        // in it, given once.
        for mirror in entry.mirrors {
            expect(!mirror.isEmpty && mirror.trimmingWhitespace() == mirror, "a mirror with outer blanks: \(mirror)")
            expect(!mirror.contains("\t"), "a mirror holding a tab")
            expect(mirror != entry.url, "a mirror that is the URL itself")
            expect(
                (try? RequestSerializer.parseURL(mirror, for: .download)).map { $0.isHTTP || $0.isRemoteFile } == true,
                "a mirror that is no URL afget fetches: \(mirror)")
        }
        expect(Set(entry.mirrors).count == entry.mirrors.count, "a mirror given twice")
        expect(!entry.url.contains("\t"), "a URL holding a tab")
        if let out = entry.out {
            let parts = out.split(separator: "/", omittingEmptySubsequences: false)
            expect(!out.hasPrefix("/") && !parts.contains("..") && !parts.contains("") && parts.last != ".", "out=\(out)")
        }
        if let dir = entry.dir { expect(!dir.isEmpty, "an empty dir=") }
        if let checksum = entry.checksum {
            let hexDigits = "0123456789abcdef".utf8
            expect(
                checksum.hex.utf8.count == checksum.algorithm.hexLength && checksum.hex.utf8.allSatisfy(hexDigits.contains),
                "a checksum that no digest can equal: \(checksum)")
        }
        for header in entry.headers {
            expect(!header.name.isEmpty && !header.name.contains(":"), "header name \(header.name)")
            expect(!header.value.contains("\r") && !header.value.contains("\n"), "a line break in header \(header.name)")
        }
    }
}
