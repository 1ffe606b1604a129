@testable import AFGetKit
import AFGetSupport

/// A sums file (`--checksums`), GNU or BSD format: what it yields is what a download is checked
/// against, so every entry must be a hash some digest can equal, for a name that finds it again;
/// written back in either format it reads as the same entries; a refusal names a real line.
enum SumsFileTarget: FuzzTarget {
    static let name = "sums-file"

    static func fuzz(_ input: [UInt8]) {
        let lineCount = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        let file: SumsFile
        do {
            file = try SumsFile(parsing: input, name: "SUMS")
        } catch {
            checkRefusal(error, lineCount: lineCount)
            expectSameVerdict(withCRLF: input, entries: nil, refusal: error)
            return
        }
        var previousLine = 0
        for entry in file.entries {
            check(entry, in: file)
            expect(entry.line > previousLine && entry.line <= lineCount, "entry on line \(entry.line) of \(lineCount)")
            previousLine = entry.line
        }
        expectSameVerdict(withCRLF: input, entries: file.entries, refusal: nil)
        for (format, write) in [("coreutils", coreutilsLine), ("tagged", taggedLine)] {
            let text = file.entries.flatMap { write($0) + [UInt8(ascii: "\n")] }
            do {
                let again = try SumsFile(parsing: text, name: "SUMS")
                expect(
                    again.entries.map(\.path) == file.entries.map(\.path)
                        && again.entries.map(\.checksum) == file.entries.map(\.checksum),
                    "written in the \(format) format, the entries read back otherwise")
            } catch {
                expect(false, "written in the \(format) format, the entries are refused: \(error.message)")
            }
        }
    }

    private static func check(_ entry: SumsFile.Entry, in file: SumsFile) {
        let hexDigits = "0123456789abcdef".utf8
        let checksum = entry.checksum
        expect(
            checksum.hex.utf8.count == checksum.algorithm.hexLength && checksum.hex.utf8.allSatisfy(hexDigits.contains),
            "a checksum no digest can equal: \(checksum)")
        expect(!entry.path.isEmpty && SumsFile.normalized(entry.path) == entry.path, "a path not normalized")
        expect(file.checksum(forPath: entry.path) == checksum, "an entry its own path does not find")
        // By its name alone: this entry's checksum, another entry's of the same name, or none.
        let fileName = SumsFile.fileName(of: entry.path)
        if let found = file.checksum(forPath: fileName), fileName != entry.path {
            expect(
                file.entries.contains { SumsFile.fileName(of: $0.path) == fileName && $0.checksum == found },
                "a name finding a checksum of no entry of that name")
        }
    }

    /// "SUMS:LINE: cause", LINE a line of the input; bad input, exit 2.
    private static func checkRefusal(_ failure: TransferFailure, lineCount: Int) {
        expect(failure.kind == .usage, "a refusal of class \(failure.kind)")
        let parts = failure.message.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        expect(parts.count == 3 && parts[0] == "SUMS", "a refusal naming no line: \(failure.message)")
        let number = Int(parts[1]) ?? 0
        expect((1...lineCount).contains(number), "a refusal on line \(number) of \(lineCount)")
        expect(parts[2].hasPrefix(" ") && parts[2].count > 1, "a refusal without a cause")
    }

    /// CR LF line ends read as LF ones (a file saved on Windows).
    private static func expectSameVerdict(withCRLF input: [UInt8], entries: [SumsFile.Entry]?, refusal: TransferFailure?) {
        guard !input.contains(UInt8(ascii: "\r")) else { return }
        let crlf = input.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
        do {
            let again = try SumsFile(parsing: crlf, name: "SUMS")
            expect(again.entries == entries, "CR LF line ends give other entries")
        } catch {
            expect(error == refusal, "CR LF line ends give another refusal: \(error.message)")
        }
    }

    /// `HEX  name` as sha256sum writes it: a name holding a backslash, LF or CR escaped, the
    /// line then starting with a backslash.
    private static func coreutilsLine(_ entry: SumsFile.Entry) -> [UInt8] {
        let (name, escaped) = escaped(entry.path)
        return (escaped ? [UInt8(ascii: "\\")] : []) + Array(entry.checksum.hex.utf8) + Array("  ".utf8) + name
    }

    /// `ALGO (name) = HEX` as `sha256sum --tag` writes it.
    private static func taggedLine(_ entry: SumsFile.Entry) -> [UInt8] {
        let tag =
            switch entry.checksum.algorithm {
            case .md5: "MD5"
            case .sha1: "SHA1"
            case .sha256: "SHA256"
            case .sha512: "SHA512"
            }
        let (name, escaped) = escaped(entry.path)
        return (escaped ? [UInt8(ascii: "\\")] : []) + Array("\(tag) (".utf8) + name
            + Array(") = \(entry.checksum.hex)".utf8)
    }

    private static func escaped(_ name: [UInt8]) -> ([UInt8], Bool) {
        var result: [UInt8] = []
        var escaped = false
        for byte in name {
            switch byte {
            case UInt8(ascii: "\\"): result += Array("\\\\".utf8)
            case UInt8(ascii: "\n"): result += Array("\\n".utf8)
            case UInt8(ascii: "\r"): result += Array("\\r".utf8)
            default:
                result.append(byte)
                continue
            }
            escaped = true
        }
        return (result, escaped)
    }
}
