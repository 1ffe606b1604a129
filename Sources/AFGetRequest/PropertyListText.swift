/// Parameters as an XML property list (AFPropertyListRequestSerializer's body). Written here
/// rather than through Foundation so member order and number spelling are kept; null has no
/// property-list form and is refused.
public enum PropertyListText {
    public struct Unrepresentable: Error, Sendable, Equatable {
        public let message: String
    }

    public static func xml(_ value: Parameter) throws(Unrepresentable) -> String {
        var output = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        try write(value, to: &output, depth: 0)
        output += "</plist>\n"
        return output
    }

    private static func write(_ value: Parameter, to output: inout String, depth: Int) throws(Unrepresentable) {
        let indent = String(repeating: "\t", count: depth)
        switch value {
        case .string(let text):
            output += "\(indent)<string>\(escaped(text))</string>\n"
        case .number(let text):
            let isInteger = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            // A property list's integers are 64-bit: a larger one would be read back as no
            // number at all (found by fuzzing), and as a real it would lose digits unsaid.
            guard !isInteger || Int64(text) != nil else {
                throw Unrepresentable(message: "the integer \(text) is too large for a property list")
            }
            output += isInteger ? "\(indent)<integer>\(text)</integer>\n" : "\(indent)<real>\(text)</real>\n"
        case .bool(let flag):
            output += "\(indent)<\(flag ? "true" : "false")/>\n"
        case .null:
            throw Unrepresentable(message: "null cannot be sent in a property list")
        case .array(let elements):
            output += "\(indent)<array>\n"
            for element in elements { try write(element, to: &output, depth: depth + 1) }
            output += "\(indent)</array>\n"
        case .dictionary(let members):
            output += "\(indent)<dict>\n"
            for member in members {
                output += "\(indent)\t<key>\(escaped(member.key))</key>\n"
                try write(member.value, to: &output, depth: depth + 1)
            }
            output += "\(indent)</dict>\n"
        }
    }

    /// By scalars, not Characters: "&" followed by a combining mark is one Character that is
    /// not "&", and was written raw, which no reader takes (found by fuzzing resume data).
    private static func escaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
