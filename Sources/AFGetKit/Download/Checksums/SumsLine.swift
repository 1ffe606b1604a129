import AFGetSupport

/// One line of a sums file, in either format publishers use: GNU coreutils' (`HEX  name`,
/// `HEX *name`) or the BSD tagged one (`SHA256 (name) = HEX`). A line that starts with `\`
/// has an escaped name, as coreutils writes names holding a backslash or a line break
/// (`\\`, `\n`, `\r`). Names are bytes: a sums file may name files in any encoding, and a
/// name is matched exactly or not at all.
struct SumsLine: Equatable {
    /// The name as the file gives it, unescaped.
    let name: [UInt8]
    let checksum: Checksum

    /// The line's entry; nil for a line with nothing to check (blank, or a `#` comment, which
    /// coreutils skips too). A line that is neither format throws its cause.
    static func parse(_ raw: ArraySlice<UInt8>) throws(TransferFailure) -> SumsLine? {
        var line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
        line = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = line.first, first != UInt8(ascii: "#") else { return nil }
        let escaped = first == UInt8(ascii: "\\")
        if escaped { line = line.dropFirst() }
        // A tag is followed by " (", a hash by "  " or " *": the first word's next two bytes tell.
        let word = line.prefix { $0 != UInt8(ascii: " ") }
        let afterWord = line.dropFirst(word.count)
        let (name, checksum) =
            afterWord.starts(with: " (".utf8)
            ? try tagged(tag: word, rest: afterWord.dropFirst(2))
            : try coreutils(hash: word, rest: afterWord)
        return SumsLine(name: escaped ? try unescaped(name) : Array(name), checksum: checksum)
    }

    /// `HEX  name` or `HEX *name`: the algorithm is the one whose digests have that many digits.
    private static func coreutils(
        hash: ArraySlice<UInt8>, rest: ArraySlice<UInt8>
    ) throws(TransferFailure) -> (ArraySlice<UInt8>, Checksum) {
        guard !hash.isEmpty, hash.allSatisfy(isHexDigit) else {
            throw TransferFailure(.input(.notSumsLine))
        }
        guard let algorithm = DigestAlgorithm.allCases.first(where: { $0.hexLength == hash.count }) else {
            throw TransferFailure(.input(.hashLengthUnknown(hash.count)))
        }
        guard rest.count >= 2, rest.first == UInt8(ascii: " "),
            [UInt8(ascii: " "), UInt8(ascii: "*")].contains(rest.dropFirst().first)
        else {
            throw TransferFailure(.input(.noSeparatorAfterHash))
        }
        let name = rest.dropFirst(2)
        guard !name.isEmpty else { throw TransferFailure(.input(.noNameAfterHash)) }
        return (name, Checksum(algorithm: algorithm, hex: String(decoding: hash, as: UTF8.self)))
    }

    /// `ALGO (name) = HEX`, `rest` being what follows "ALGO (". The name ends at the last ")":
    /// BSD tools do not escape names, which may hold ") = " themselves.
    private static func tagged(
        tag: ArraySlice<UInt8>, rest: ArraySlice<UInt8>
    ) throws(TransferFailure) -> (ArraySlice<UInt8>, Checksum) {
        let tagText = String(decoding: tag, as: UTF8.self)
        guard let algorithm = tags[tagText.uppercased()] else {
            throw TransferFailure(.input(.tagUnknown(tagText)))
        }
        guard let close = rest.lastIndex(of: UInt8(ascii: ")")), rest[close...].starts(with: ") = ".utf8) else {
            throw TransferFailure(.input(.taggedLineMalformed(tag: tagText)))
        }
        let name = rest[..<close]
        let hash = rest[(close + 4)...]
        guard !name.isEmpty else { throw TransferFailure(.input(.noNameInParentheses)) }
        guard hash.count == algorithm.hexLength, hash.allSatisfy(isHexDigit) else {
            throw TransferFailure(.input(.taggedHashLength(tag: tagText, digits: algorithm.hexLength)))
        }
        return (name, Checksum(algorithm: algorithm, hex: String(decoding: hash, as: UTF8.self)))
    }

    /// The tags GNU and BSD tools write (`sha256sum --tag`, `sha256`, `md5`), and the
    /// algorithm each stands for.
    private static let tags: [String: DigestAlgorithm] = [
        "MD5": .md5, "SHA1": .sha1, "SHA256": .sha256, "SHA512": .sha512,
        "SHA-1": .sha1, "SHA-256": .sha256, "SHA-512": .sha512,
    ]

    /// coreutils' escapes: `\\`, `\n` and `\r`; anything else after a backslash was not
    /// written by it, and guessing would check some other file.
    private static func unescaped(_ name: ArraySlice<UInt8>) throws(TransferFailure) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(name.count)
        var iterator = name.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                continue
            }
            switch iterator.next() {
            case UInt8(ascii: "\\"): result.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "n"): result.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): result.append(UInt8(ascii: "\r"))
            case nil: throw TransferFailure(.input(.loneBackslash))
            case let other?: throw TransferFailure(.input(.unknownEscape(other)))
            }
        }
        return result
    }

    /// ASCII only: `Character.isHexDigit` takes fullwidth digits, which no digest equals.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }
}
