import AFGetRequest
import AFGetSupport

/// A list line naming a Metalink document (`release.meta4`, `https://host/x.metalink`) rather
/// than a file: it stands for every file the document describes, as `--metalink` would
/// (`ListDocuments` reads or fetches it where the line is read).
public struct DocumentLine: Sendable, Equatable {
    /// "FILE:LINE", for messages.
    public var source: String
    /// The line's number in the list; the document's files are claimed under it.
    public var line: Int
    /// A local path (relative to the current directory, as `--metalink FILE`) or a URL.
    public var location: String
    /// `dir=`: where the document's names start, relative to `-d` as for any line.
    public var dir: String?

    /// Whether `location` is fetched rather than read.
    public var isURL: Bool { holdsSchemeSeparator(location) }

    /// The document `locations` (a URL line's sources) name, or nil when they name a file. A
    /// line names a document when its name (a URL's path, without its query) ends in `.meta4`
    /// or `.metalink`, in any case; a line without `://` is otherwise still refused as "not a
    /// URL". A document is named alone: the other sources of its files are in it.
    init?(locations: [String], source: String, line: Int) throws(ItemFailure) {
        let location = locations[0]
        // Most lines are files: a look at the text first, libcurl's parser only for a candidate.
        let isURL = holdsSchemeSeparator(location)
        let looksLikeOne = location.withUTF8Bytes { bytes in
            let end = isURL ? bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count : bytes.count
            return Self.namesDocument(UnsafeBufferPointer(rebasing: bytes[..<end]))
        }
        guard looksLikeOne else { return nil }
        if isURL {
            guard try RequestSerializer.parseURL(location, for: .download).path.withUTF8Bytes(Self.namesDocument) else {
                return nil
            }
        }
        guard locations.count == 1 else {
            throw ItemFailure(
                item: source,
                TransferFailure(.input(.documentNotAlone)))
        }
        self.source = source
        self.line = line
        self.location = location
    }

    /// Whether `name` ends in `.meta4` or `.metalink`, in any case. By bytes in a buffer: every
    /// line of a list is asked, twice (the check and the read), and reading each by Characters
    /// was 2.5 % of a list's CPU, by `UTF8View` still 1 %; the suffixes are ASCII, which bytes
    /// and Characters read alike (a combining mark after the last letter makes it no suffix
    /// either way).
    private static func namesDocument(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        endsIgnoringASCIICase(name, in: ".meta4") || endsIgnoringASCIICase(name, in: ".metalink")
    }

    /// Whether `name` ends in `suffix` (lowercase ASCII), in any case.
    private static func endsIgnoringASCIICase(_ name: UnsafeBufferPointer<UInt8>, in suffix: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
        guard name.count >= wanted.count else { return false }
        return zip(name.suffix(wanted.count), wanted).allSatisfy { byte, lower in
            byte == lower || ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) && byte + 32 == lower)
        }
    }

    /// An option line below the document's line. `dir=` is where its files go; the others name
    /// or check one file, which a document does itself for each of its own.
    mutating func apply(key: String, value: String) throws(TransferFailure) {
        switch key {
        case "dir":
            guard !value.isEmpty else { throw TransferFailure(.input(.directoryEmpty)) }
            dir = value
        case "out":
            throw TransferFailure(.input(.documentOut))
        case "checksum":
            throw TransferFailure(.input(.documentChecksum))
        case "header":
            throw TransferFailure(.input(.documentHeader))
        default:
            throw TransferFailure(.input(.documentUnknownOption(key)))
        }
    }
}
