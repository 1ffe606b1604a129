import Glibc

/// A list of URLs in aria2c's input-file format: one URL per line, then optional indented
/// `key=value` lines for it (`out=`, `dir=`, `checksum=`, `header=`); blank lines and `#`
/// comments ignored. Problems are reported per line; the rest of the list still counts.
public struct InputList: Sendable {
    public struct Entry: Sendable, Equatable {
        /// "FILE:LINE", for messages.
        public var source: String
        public var url: String
        public var out: String?
        public var dir: String?
        public var checksum: Checksum?
        public var headers: [HTTPHeader] = []
    }

    public private(set) var entries: [Entry] = []
    /// Lines that cannot be used, each naming "FILE:LINE" and the cause.
    public private(set) var problems: [ItemFailure] = []

    public init(parsing text: String, name: String) {
        var current: Entry?
        var skippingOptions = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let source = "\(name):\(index + 1)"
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }

            if line.first == " " || line.first == "\t" {
                guard current != nil else {
                    // Options of a URL line already reported as bad are skipped with it.
                    if !skippingOptions {
                        problems.append(ItemFailure(item: source, TransferFailure(.usage, "option line without a URL before it")))
                    }
                    continue
                }
                do {
                    try Self.apply(option: trimmed, to: &current!)
                } catch {
                    problems.append(ItemFailure(item: source, error))
                }
                continue
            }

            if let finished = current { entries.append(finished) }
            current = nil
            do {
                _ = try RequestSerializer.parseURL(trimmed)
                current = Entry(source: source, url: trimmed)
                skippingOptions = false
            } catch {
                problems.append(ItemFailure(item: source, error.failure))
                skippingOptions = true
            }
        }
        if let finished = current { entries.append(finished) }
    }

    private static func apply(option: String, to entry: inout Entry) throws(TransferFailure) {
        guard let equals = option.firstIndex(of: "=") else {
            throw TransferFailure(.usage, "option \"\(option)\" is not key=value")
        }
        let key = option[..<equals].trimmingWhitespace()
        let value = option[option.index(after: equals)...].trimmingWhitespace()
        switch key {
        case "out":
            try checkRelative(value, "out")
            entry.out = value
        case "dir":
            guard !value.isEmpty else { throw TransferFailure(.usage, "dir= is empty") }
            entry.dir = value
        case "checksum":
            entry.checksum = try Checksum.parse(value)
        case "header":
            entry.headers.append(try HTTPHeader.parse(value))
        default:
            throw TransferFailure(.usage, "unknown option \"\(key)\" (out, dir, checksum, header)")
        }
    }

    /// `out=` names a file below the item's directory: never absolute, never `..`.
    private static func checkRelative(_ path: String, _ key: String) throws(TransferFailure) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !components.contains(where: { $0 == ".." || $0.isEmpty }) else {
            throw TransferFailure(.usage, "\(key)=\(path) must be a relative path without ..")
        }
    }
}

extension InputList {
    /// Reads and parses a list file, or standard input for "-".
    public static func load(_ path: String) throws(ItemFailure) -> InputList {
        let name = path == "-" ? "stdin" : path
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ItemFailure(item: name, TransferFailure(.usage, "cannot read the list: \(describeErrno(errno))"))
        }
        defer { if descriptor != 0 { close(descriptor) } }
        let bytes: [UInt8]
        switch readAll(descriptor) {
        case .success(let read):
            bytes = read
        case .failure(let error):
            let reason = if case .system(let code) = error { describeErrno(code) } else { "too large" }
            throw ItemFailure(item: name, TransferFailure(.usage, "cannot read the list: \(reason)"))
        }
        return InputList(parsing: String(decoding: bytes, as: UTF8.self), name: name)
    }
}
