@testable import AFGetKit
import AFGetSupport

/// A server's Content-Disposition (`-J`): the name it suggests, then the name afget would
/// give the file. Whatever the header says, the file lands in the directory asked for under a
/// name a terminal can show.
enum ContentDispositionTarget: FuzzTarget {
    static let name = "content-disposition"

    static func fuzz(_ input: [UInt8]) {
        let value = input.text
        if let suggested = ContentDisposition.filename(from: value) {
            expect(!suggested.isEmpty, "an empty suggested name")
        }
        // The RFC 8187 form alone: a percent escape is `%` and two hex digits, nothing else.
        let extended = value.split(separator: ";").last.map(String.init) ?? value
        if ContentDisposition.decodeExtended(extended) != nil {
            let encoded = Array(extended.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false).last!.utf8)
            var index = 0
            while index < encoded.count {
                if encoded[index] == UInt8(ascii: "%") {
                    let escape = encoded[(index + 1)...].prefix(2)
                    expect(escape.count == 2 && escape.allSatisfy(isHexDigit), "a bad percent escape was decoded")
                    index += 3
                } else {
                    index += 1
                }
            }
        }
        let name = FileNaming.safeComponent(ContentDisposition.filename(from: value) ?? value)
        expect(!name.isEmpty, "an empty file name")
        expect(name != "." && name != ".." && !name.hasPrefix("."), "a hidden or relative name: \(name)")
        expect(!name.contains("/") && !name.contains("\\"), "a separator in the name: \(name)")
        expect(name.utf8.count <= FileNaming.maxNameBytes, "a name of \(name.utf8.count) bytes")
        expect(!name.unicodeScalars.contains(where: TerminalText.isUnsafe), "a control character in the name")
        expect(name == name.trimmingWhitespace(), "outer blanks in the name")
        expect(FileNaming.safeComponent(name) == name, "a safe name made safe again changes: \(name)")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
