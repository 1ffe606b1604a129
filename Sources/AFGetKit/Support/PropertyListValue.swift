import FoundationEssentials

/// A property list read without expecting types in advance, so a reader can check each value's
/// own type and say what is wrong (resume data must not be trusted blindly). Dates and data,
/// which afget never writes, read as `other`.
indirect enum PropertyListValue: Decodable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    case other

    /// Parses XML (or binary) property-list bytes.
    static func parse(_ data: Data) throws -> PropertyListValue {
        try PropertyListDecoder().decode(PropertyListValue.self, from: data)
    }

    init(from decoder: any Decoder) throws {
        if let dictionary = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: PropertyListValue] = [:]
            for key in dictionary.allKeys {
                members[key.stringValue] = try dictionary.decode(PropertyListValue.self, forKey: key)
            }
            self = .dictionary(members)
        } else if var list = try? decoder.unkeyedContainer() {
            var elements: [PropertyListValue] = []
            while !list.isAtEnd { elements.append(try list.decode(PropertyListValue.self)) }
            self = .array(elements)
        } else {
            // Most specific first: <true/> is no integer, <integer> no string.
            let single = try decoder.singleValueContainer()
            if let flag = try? single.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? single.decode(Int64.self) {
                self = .integer(number)
            } else if let text = try? single.decode(String.self) {
                self = .string(text)
            } else if let number = try? single.decode(Double.self) {
                self = .real(number)
            } else {
                self = .other
            }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
