import AFGetRequest

/// JSON: response bodies afget pretty-prints and `name:=JSON` items. What parses is written
/// back (compact and pretty) and reads as the same value; what is refused says where.
enum JSONTarget: FuzzTarget {
    static let name = "json"

    static func fuzz(_ input: [UInt8]) {
        let value: Parameter
        do {
            value = try JSONText.parse(input)
        } catch {
            expect(!error.message.isEmpty, "refused without a cause")
            expect((0...input.count).contains(error.offset), "refused at offset \(error.offset) of \(input.count)")
            return
        }
        expect(depth(value) <= 512, "nested \(depth(value)) deep")
        for (form, text) in [("compact", JSONText.compact(value)), ("pretty", JSONText.pretty(value, colored: false))] {
            do {
                let again = try JSONText.parse(text)
                expect(again == value, "\(form) text reads as another value")
            } catch {
                expect(false, "\(form) text refused: \(error.message) at \(error.offset)")
            }
        }
        // Coloured output is the pretty text with escapes around tokens, nothing else.
        let colored = JSONText.pretty(value, colored: true)
        expect(withoutEscapes(colored) == JSONText.pretty(value, colored: false), "colours changed the text")
    }

    private static func depth(_ value: Parameter) -> Int {
        switch value {
        case .array(let elements): 1 + (elements.map(depth).max() ?? 0)
        case .dictionary(let members): 1 + (members.map { depth($0.value) }.max() ?? 0)
        default: 0
        }
    }

    /// The text without `ESC [ digits m` sequences.
    private static func withoutEscapes(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}", scalars.first == "[" {
                while let next = scalars.popFirst(), next != "m" {}
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
