import AFGetSupport

/// Turns untrusted names (from a URL, later from Content-Disposition) into one safe file name
/// component: never a path, never hidden, never `.` or `..`, no control or bidi characters,
/// and short enough that `NAME.afpart` and `NAME.afresume` still fit the file system's limit.
public enum FileNaming {
    public static let fallbackName = "index.html"
    /// The longest name a file may have: NAME_MAX on Linux file systems.
    static let nameMaxBytes = 255
    /// NAME_MAX minus the longest suffix afget adds (".afresume").
    public static let maxNameBytes = nameMaxBytes - ".afresume".utf8.count

    /// The endings of afget's own files beside a download (`DEST.afpart`, `DEST.afresume`, and
    /// `DEST.aftmp` while resume data is replaced).
    static let workingSuffixes = [PartFile.suffix, ResumeStore.suffix, ResumeStore.temporarySuffix]

    /// Whether a file named `name` would be taken for another download's part file or resume
    /// data: a later run for that download would start its "part file" over, or rename over it.
    static func isWorkingFileName(_ name: String) -> Bool {
        workingSuffixes.contains { name.hasSuffix($0) }
    }

    /// The name for a download of `url`: the last segment of the path as given, percent-decoded.
    public static func name(forURLPath path: String) -> String {
        let lastSegment = path.suffix(afterLastByte: UInt8(ascii: "/")).map(String.init) ?? path
        return safeComponent(percentDecoded(lastSegment) ?? lastSegment)
    }

    /// Reduces any string to a safe single path component.
    public static func safeComponent(_ name: String) -> String {
        // Visible ASCII without a separator or a leading dot is already safe: the usual name,
        // kept without the scalar-by-scalar pass (a batch names every item twice).
        if let first = name.utf8.first, first != UInt8(ascii: "."), name.utf8.count <= maxNameBytes,
            name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") })
        {
            return name
        }
        var cleaned = String(
            String.UnicodeScalarView(
                name.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
                    if scalar == "/" || scalar == "\\" { return "_" }
                    return TerminalText.isUnsafe(scalar) ? nil : scalar
                }))
        // Dots and blanks in front, in any order (". .x"): the name neither hides nor starts blank.
        cleaned = String(cleaned.drop { $0 == "." || $0 == " " || $0 == "\t" }).trimmingWhitespace()
        if cleaned.isEmpty { return fallbackName }
        return shortened(cleaned)
    }

    /// Names too long keep a prefix plus a short hash of the whole name, so the same long name
    /// always maps to the same short one and a later run finds its part file again. The
    /// extension stays at the end: `report….pdf` is still opened as a PDF.
    static func shortened(_ name: String) -> String {
        guard name.utf8.count > maxNameBytes else { return name }
        let ending = fileExtension(of: name)
        let suffix = "~" + String(fnv1a(name), radix: 16) + ending
        var prefix = Substring(decoding: name.utf8.dropLast(ending.utf8.count), as: UTF8.self)
        while prefix.utf8.count + suffix.utf8.count > maxNameBytes {
            prefix.removeLast()
        }
        return prefix + suffix
    }

    /// `.pdf` of `report.pdf`, `.tar.gz` of `x.tar.gz`: up to two trailing dot-components of
    /// at most eight ASCII letters or digits, with something before them; else "".
    static func fileExtension(of name: String) -> String {
        var ending = Substring("")
        var rest = Substring(name)
        for _ in 0..<2 {
            guard let dot = rest.lastIndex(of: "."), dot != rest.startIndex else { break }
            let component = rest[rest.index(after: dot)...]
            guard (1...8).contains(component.utf8.count), component.utf8.allSatisfy(isASCIILetterOrDigit) else { break }
            ending = rest[dot...] + ending
            rest = rest[..<dot]
        }
        return String(ending)
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: false
        }
    }

    /// What afget's own files for `destination` are named after: the destination itself, or,
    /// when `NAME.afresume` would not fit NAME_MAX (an `-o` name of 247 to 255 bytes), the name
    /// shortened the same way every run (DESIGN.md §8), in the same directory.
    static func workingFileStem(for destination: String) -> String {
        // The name's length is read in place, as `splitPath` finds the name: every item asks, and
        // making the directory's and the name's strings to measure one was 0.5 % of a list's CPU.
        let bytes = destination.utf8
        let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex
        guard bytes.distance(from: nameStart, to: bytes.endIndex) > maxNameBytes else { return destination }
        return String(Substring(bytes[..<nameStart])) + shortened(String(Substring(bytes[nameStart...])))
    }

    private static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { hash, byte in
            (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }

    /// Percent-decodes `text`; nil when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        guard text.containsByte(UInt8(ascii: "%")) else { return text }
        guard let bytes = percentDecodedBytes(text.utf8) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `name.ext` → `name.N.ext` (`--on-exists rename`).
    public static func numbered(_ name: String, _ number: Int) -> String {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot]).\(number)\(name[dot...])"
        }
        return "\(name).\(number)"
    }
}
