import AFGetRequest
import AFGetSupport

/// `afget request` items (`name=v`, `name==v`, `Name:value`, `name:=JSON`, `field@path`) and
/// `-H` lines, which come from scripts and files: an item taken is what its text says, and a
/// header taken goes on the wire and into resume data unchanged.
enum RequestItemTarget: FuzzTarget {
    static let name = "request-item"

    static func fuzz(_ input: [UInt8]) {
        let argument = input.text
        do {
            let item = try RequestItem.parse(argument)
            switch item {
            case .parameter(let name, let value):
                if argument.hasPrefix("\(name):=") {
                    let json = try? JSONText.parse(String(argument.dropFirst(name.count + 2)))
                    expect(json == value, "\(argument) read as JSON \(value)")
                } else {
                    expect(
                        argument == "\(name)=\(value.text)" && value == .string(value.text),
                        "\(argument) read as \(name)=\(value)")
                }
            case .query(let name, let value):
                expect(argument == "\(name)==\(value)", "\(argument) read as query \(name)==\(value)")
            case .header(let header):
                checkHeader(header)
            case .file(let field, let path):
                expect(argument == "\(field)@\(path)" && !path.isEmpty, "\(argument) read as file \(field)@\(path)")
            }
            if case .parameter(let name, _) = item { expect(!name.isEmpty, "an item without a name") }
            if case .query(let name, _) = item { expect(!name.isEmpty, "an item without a name") }
        } catch {
            expect(!error.message.isEmpty && error.kind == .usage, "refused without a cause: \(error)")
        }
        do {
            checkHeader(try HTTPHeader.parse(argument))
        } catch {
            expect(!error.message.isEmpty && error.kind == .usage, "a header refused without a cause: \(error)")
            // A refused -H line may be a name and a secret: the message quotes its first word only.
            // Words are runs of token bytes, as a header name is: a letter that a combining mark
            // follows ends a word of bytes but not of Characters.
            let words = argument.utf8.split(whereSeparator: { !isTokenByte($0) }).map { String(decoding: $0, as: UTF8.self) }
            let firstWord = argument.utf8.first.map(isTokenByte) == true ? words.first ?? "" : ""
            for word in words where word.utf8.count > 8 && !firstWord.contains(word) {
                expect(!error.message.contains(word), "the refusal quotes \(word) of \(argument)")
            }
        }
    }

    /// A header as taken: a token for a name, a value without line breaks or controls, and its
    /// wire form reading back as itself.
    private static func checkHeader(_ header: HTTPHeader) {
        expect(!header.name.isEmpty && header.name.allSatisfy(isToken), "header name \(header.name)")
        expect(
            !header.value.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F },
            "a control in \(header.name)")
        expect(header.value.trimmingWhitespace() == header.value, "outer blanks in \(header.name)")
        let wire = header.value.isEmpty ? "\(header.name):" : header.line
        expect((try? HTTPHeader.parse(wire)) == header, "\(wire) does not read back as itself")
    }

    private static func isToken(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "!#$%&'*+-.^_`|~".contains(character))
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        byte < 0x80 && isToken(Character(Unicode.Scalar(byte)))
    }
}

extension Parameter {
    /// A string parameter's text.
    fileprivate var text: String {
        if case .string(let text) = self { return text }
        return ""
    }
}
