/// One JSON object with its keys in the order given, written as a single line.
public struct JSONLine {
    private var fields: [String] = []

    public init() {}

    public mutating func add(_ key: String, _ value: String) {
        fields.append("\(Self.quoted(key)):\(Self.quoted(value))")
    }

    public mutating func add(_ key: String, _ value: Int64) {
        fields.append("\(Self.quoted(key)):\(value)")
    }

    public mutating func add(_ key: String, _ value: Int) {
        add(key, Int64(value))
    }

    public mutating func add(_ key: String, _ value: Double) {
        let finite = value.isFinite ? value : 0
        let rounded = (finite * 1000).rounded() / 1000
        fields.append("\(Self.quoted(key)):\(rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded))")
    }

    public mutating func add(_ key: String, optional value: Int64?) {
        if let value { add(key, value) } else { addNull(key) }
    }

    public mutating func addNull(_ key: String) {
        fields.append("\(Self.quoted(key)):null")
    }

    /// A value that is already JSON (a nested object).
    public mutating func addRaw(_ key: String, _ json: String) {
        fields.append("\(Self.quoted(key)):\(json)")
    }

    public var text: String { "{" + fields.joined(separator: ",") + "}" }

    /// A JSON string literal: quotes, backslashes and control characters escaped, and every
    /// other character a terminal could obey (C1 controls, bidirectional marks) too, so that
    /// JSON on a terminal carries the text exactly without steering it.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where TerminalText.isUnsafe(scalar):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
