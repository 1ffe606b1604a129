import AFGetRequest
import AFGetSupport
import CurlCore
import Glibc

/// A list of URLs in aria2c's input-file format: one URL per line (or several separated by tabs:
/// one file from several sources, `Entry.mirrors`), then optional indented `key=value` lines for it (`out=`, `dir=`, `checksum=`, `header=`); blank lines and `#`
/// comments ignored. A line naming a Metalink document stands for its files (`DocumentLine`).
/// Problems are reported per line and take their item with them; the rest of the list still
/// counts.
public struct InputList: Sendable {
    public struct Entry: Sendable, Equatable {
        /// "FILE:LINE", for messages.
        public var source: String
        /// The URL's line number in the list.
        public var line: Int
        public var url: String
        /// `url` as parsed when the line was checked.
        public var parsedURL: CurlURL
        /// The line's other URLs, after a tab each: the same file from other sources.
        public var mirrors: [String] = []
        public var out: String?
        public var dir: String?
        public var checksum: Checksum?
        /// Hashes of the file's pieces (a Metalink document's).
        public var pieces: PieceHashes?
        public var headers: [HTTPHeader] = []
    }

    public private(set) var entries: [Entry] = []
    public private(set) var documents: [DocumentLine] = []
    /// Lines that cannot be used, each naming "FILE:LINE" and the cause.
    public private(set) var problems: [ItemFailure] = []

    /// A whole list at once (a list is read as a stream by `InputList.Parser`).
    public init(parsing bytes: [UInt8], name: String) {
        var parser = Parser(name: name)
        var results: [Parsed] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            parser.take(line: line, into: &results)
        }
        parser.finish(into: &results)
        for result in results {
            switch result {
            case .entry(let entry): entries.append(entry)
            case .document(let document): documents.append(document)
            case .problem(let problem): problems.append(problem)
            }
        }
    }

    /// What a list's lines come to: an entry, a Metalink document, or a line that cannot be used.
    public enum Parsed: Sendable {
        case entry(Entry)
        case document(DocumentLine)
        case problem(ItemFailure)
    }

    /// Parses a list a line at a time. An entry is complete when the next URL line arrives (its
    /// option lines come first), at the end, or when the caller knows no more lines are coming
    /// for now (`finishEntry`: a pipe with nothing more to read).
    public struct Parser: Sendable {
        let name: String
        /// What is read of each URL: a list's first pass needs only destinations.
        let reading: CurlURL.Reading
        private var lineNumber = 0
        private var current: Entry?
        /// A document line under way, in place of `current`.
        private var document: DocumentLine?
        private var skippingOptions = false

        private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

        public init(name: String, reading: CurlURL.Reading = .all) {
            self.name = name
            self.reading = reading
        }

        /// Takes one line, without its LF. Lines end in LF or CR LF; a UTF-8 byte order mark at
        /// the start (as Windows editors save) is skipped. A line that is not valid UTF-8 is
        /// reported, not guessed at: a name in it could not be kept exactly.
        public mutating func take(line rawLine: ArraySlice<UInt8>, into results: inout [Parsed]) {
            lineNumber += 1
            var lineBytes = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            if lineNumber == 1 && lineBytes.starts(with: Self.byteOrderMark) { lineBytes = lineBytes.dropFirst(3) }
            let source = "\(name):\(lineNumber)"
            let isOptionLine = lineBytes.first == UInt8(ascii: " ") || lineBytes.first == UInt8(ascii: "\t")
            guard let line = String(validating: lineBytes, as: UTF8.self) else {
                let notUTF8 = TransferFailure(.input(.notUTF8))
                if isOptionLine {
                    if current != nil || document != nil {
                        dropPending(because: notUTF8, at: source, into: &results)
                    } else if !skippingOptions {
                        results.append(.problem(ItemFailure(item: source, notUTF8)))
                    }
                } else {
                    // Like a bad URL line: reported, and its option lines skipped with it.
                    finishEntry(into: &results)
                    skippingOptions = true
                    results.append(.problem(ItemFailure(item: source, notUTF8)))
                }
                return
            }
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { return }

            if isOptionLine {
                if document != nil {
                    do throws(TransferFailure) {
                        let (key, value) = try InputList.keyAndValue(of: trimmed)
                        try document!.apply(key: key, value: value)
                    } catch {
                        dropPending(because: error, at: source, into: &results)
                    }
                    return
                }
                guard current != nil else {
                    // Options of a URL line already reported as bad are skipped with it.
                    if !skippingOptions {
                        results.append(
                            .problem(ItemFailure(item: source, TransferFailure(.input(.optionWithoutURL)))))
                    }
                    return
                }
                do {
                    try InputList.apply(option: trimmed, to: &current!)
                } catch {
                    dropPending(because: error, at: source, into: &results)
                }
                return
            }

            finishEntry(into: &results)
            do {
                try InputList.checkURLLine(trimmed)
                let urls = InputList.sources(onLine: trimmed)
                if let named = try DocumentLine(locations: urls, source: source, line: lineNumber) {
                    document = named
                    skippingOptions = false
                    return
                }
                for mirror in urls.dropFirst() { _ = try RequestSerializer.parseURL(mirror, for: .download, reading: reading) }
                current = Entry(
                    source: source, line: lineNumber, url: urls[0],
                    parsedURL: try RequestSerializer.parseURL(urls[0], for: .download, reading: reading),
                    mirrors: Array(urls.dropFirst()))
                skippingOptions = false
            } catch {
                results.append(.problem(ItemFailure(item: source, error.failure)))
                skippingOptions = true
            }
        }

        /// Ends the entry under way: option lines after this belong to no URL.
        public mutating func finishEntry(into results: inout [Parsed]) {
            if let finished = current { results.append(.entry(finished)) }
            if let finished = document { results.append(.document(finished)) }
            current = nil
            document = nil
        }

        /// The entry or document under way is not used at all; its further option lines are
        /// skipped with it.
        private mutating func dropPending(because failure: TransferFailure, at source: String, into results: inout [Parsed]) {
            if let item = current { results.append(.problem(InputList.dropping(item, because: failure, at: source))) }
            if let named = document {
                let shown = removingPassword(from: named.location)
                results.append(
                    .problem(
                        ItemFailure(item: source, failure.noting(.notUsing(url: shown)), url: shown)))
            }
            current = nil
            document = nil
            skippingOptions = true
        }

        /// The end of the list.
        public mutating func finish(into results: inout [Parsed]) {
            finishEntry(into: &results)
        }
    }

    /// An item whose option line cannot be used is not downloaded at all: without its `out=` it
    /// would land under another name, without its `checksum=` unverified.
    fileprivate static func dropping(_ item: Entry, because failure: TransferFailure, at source: String) -> ItemFailure {
        let shown = removingPassword(from: item.url)
        return ItemFailure(item: source, failure.noting(.notDownloading(url: shown)), url: shown)
    }

    fileprivate static func keyAndValue(of option: String) throws(TransferFailure) -> (key: String, value: String) {
        guard let equals = option.firstIndex(of: "=") else {
            throw TransferFailure(.input(.optionNotKeyValue(option)))
        }
        return (option[..<equals].trimmingWhitespace(), option[option.index(after: equals)...].trimmingWhitespace())
    }

    fileprivate static func apply(option: String, to entry: inout Entry) throws(TransferFailure) {
        let (key, value) = try keyAndValue(of: option)
        switch key {
        case "out":
            try checkRelative(value, "out")
            entry.out = value
        case "dir":
            guard !value.isEmpty else { throw TransferFailure(.input(.directoryEmpty)) }
            entry.dir = value
        case "checksum":
            entry.checksum = try Checksum.parse(value)
        case "header":
            entry.headers.append(try HTTPHeader.parse(value))
        default:
            throw TransferFailure(.input(.unknownOption(key, known: optionKeys)))
        }
    }

    private static let optionKeys = ["out", "dir", "checksum", "header"]

    /// A URL line holds URLs and nothing else: an option written beside its URL would otherwise be
    /// fetched as part of an odd URL (spaces are sent as %20).
    fileprivate static func checkURLLine(_ line: String) throws(ItemFailure) {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        // One word, the usual case.
        guard line.containsByte(UInt8(ascii: " ")) || line.containsByte(UInt8(ascii: "\t")) else { return }
        let words = line.utf8.split(whereSeparator: isBlank).map(Substring.init)
        if let option = words.dropFirst().first(where: { word in optionKeys.contains { word.hasPrefix($0 + "=") } }) {
            throw ItemFailure(item: line, TransferFailure(.input(.optionBesideURL(String(option)))))
        }
    }

    /// A URL line's sources: split at tabs (aria2c's mirrors), each without outer blanks, the
    /// first of each URL given twice. A line without a tab is one URL, spaces and all.
    static func sources(onLine line: String) -> [String] {
        guard line.containsByte(UInt8(ascii: "\t")) else { return [line] }
        var urls: [String] = []
        for piece in line.split(separator: "\t") {
            let url = piece.trimmingWhitespace()
            if !url.isEmpty && !urls.contains(url) { urls.append(url) }
        }
        return urls
    }

    /// `out=` names a file below the item's directory: never absolute, never `..`, and never a
    /// directory (a last part of "." has no file name to create).
    static func checkRelative(_ path: String, _ key: String) throws(TransferFailure) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !components.contains(where: { $0 == ".." || $0.isEmpty }),
            components.last != "."
        else {
            throw TransferFailure(.input(.notRelative(key: key, path: path)))
        }
    }
}

extension InputList {
    /// Reads and parses a list file, or standard input for "-".
    public static func load(_ path: String) throws(ItemFailure) -> InputList {
        let name = path == "-" ? "stdin" : path
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ItemFailure(item: name, TransferFailure(.input(.listUnreadable(errno: errno))))
        }
        defer { if descriptor != 0 { close(descriptor) } }
        let bytes: [UInt8]
        switch readAll(descriptor) {
        case .success(let read):
            bytes = read
        case .failure(let error):
            let reason: InputFailure = if case .system(let code) = error { .listUnreadable(errno: code) } else { .listTooLarge }
            throw ItemFailure(item: name, TransferFailure(.input(reason)))
        }
        return InputList(parsing: bytes, name: name)
    }
}
