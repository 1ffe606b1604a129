import AFGetSupport

/// A sums file (`SHA256SUMS`, `MD5SUMS`, BSD `CHECKSUM`, …) read whole: the checksum of each
/// file it names, found by the file's path or, when no other entry shares it, by its name
/// alone. A line that cannot be read makes the whole file unusable: it names the file and the
/// line, and no item of the run is fetched unchecked because of it.
public struct SumsFile: Sendable {
    public struct Entry: Sendable, Equatable {
        /// The path as the sums file names it, `./` and doubled slashes left out.
        public let path: [UInt8]
        public let checksum: Checksum
        /// Its line in the file (the first, when several name the same file).
        public let line: Int
    }

    /// How messages name the file: its path or URL as given.
    public let name: String
    /// In the order of their first lines.
    public private(set) var entries: [Entry] = []
    private var byPath: [[UInt8]: Int] = [:]
    /// Entries by file name alone; nil where names of different checksums share it.
    private var byFileName: [[UInt8]: Int?] = [:]

    public init(parsing bytes: [UInt8], name: String) throws(TransferFailure) {
        self.name = name
        var body = bytes[...]
        // A byte order mark, as Windows editors save UTF-8, is not part of the first line.
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var number = 0
        for line in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            do throws(TransferFailure) {
                guard let parsed = try SumsLine.parse(line) else { continue }
                try add(parsed, line: number)
            } catch {
                throw error.noting(.at("\(name):\(number)"))
            }
        }
        for (index, entry) in entries.enumerated() {
            let fileName = Self.fileName(of: entry.path)
            switch byFileName[fileName] {
            case nil: byFileName[fileName] = index
            case .some(let other?) where entries[other].checksum != entry.checksum: byFileName[fileName] = .some(nil)
            case .some: break
            }
        }
    }

    /// One more line's entry. The same file named twice with one algorithm must have one hash;
    /// named with several algorithms, the strongest is kept (one digest is computed per file).
    private mutating func add(_ line: SumsLine, line number: Int) throws(TransferFailure) {
        let path = Self.normalized(line.name)
        guard !path.isEmpty else { throw TransferFailure(.input(.nameNamesNoFile)) }
        let checksum = Checksum(algorithm: line.checksum.algorithm, hex: line.checksum.hex, origin: "\(name):\(number)")
        guard let index = byPath[path] else {
            byPath[path] = entries.count
            entries.append(Entry(path: path, checksum: checksum, line: number))
            return
        }
        let earlier = entries[index]
        if earlier.checksum.algorithm == line.checksum.algorithm {
            guard earlier.checksum.hex == line.checksum.hex else {
                throw TransferFailure(
                    .input(.anotherHash(name: Self.shown(path), algorithm: line.checksum.algorithm.rawValue, line: earlier.line)))
            }
        } else if Self.strength(line.checksum.algorithm) > Self.strength(earlier.checksum.algorithm) {
            entries[index] = Entry(path: path, checksum: checksum, line: earlier.line)
        }
    }

    /// The checksum for the file at `path` (relative to the download directory): the entry of
    /// that path, else the one entry of that file name.
    public func checksum(forPath path: [UInt8]) -> Checksum? {
        let path = Self.normalized(path)
        if let index = byPath[path] { return entries[index].checksum }
        if let index = byFileName[Self.fileName(of: path)], let index { return entries[index].checksum }
        return nil
    }

    /// `./a//b` and `a/b` name one file; a leading `/` stays.
    static func normalized(_ path: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let parts = path.split(separator: slash).filter { $0 != [UInt8(ascii: ".")] }
        var result: [UInt8] = path.first == slash ? [slash] : []
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(slash) }
            result.append(contentsOf: part)
        }
        return result
    }

    static func fileName(of path: [UInt8]) -> [UInt8] {
        Array(path.split(separator: UInt8(ascii: "/")).last ?? [])
    }

    /// A name for messages (the renderers show its control characters as text).
    static func shown(_ path: [UInt8]) -> String {
        String(decoding: path, as: UTF8.self)
    }

    private static func strength(_ algorithm: DigestAlgorithm) -> Int {
        switch algorithm {
        case .md5: 0
        case .sha1: 1
        case .sha256: 2
        case .sha512: 3
        }
    }
}
