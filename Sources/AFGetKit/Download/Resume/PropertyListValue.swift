import AFGetRequest
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

    /// Why bytes are not read at all.
    struct Unreadable: Error {
        let reason: String
    }

    /// The deepest nesting of arrays and dictionaries read: afget's own resume data has three
    /// levels. Foundation's XML reader recurses once per level, and some tens of thousands of
    /// levels (well within 1 MiB) overflowed the stack: a crash, not an error.
    static let maximumDepth = 32

    /// Parses XML property-list bytes. Binary ones are refused: afget writes XML, and a binary
    /// list's references can point back at themselves.
    static func parse(_ data: Data) throws -> PropertyListValue {
        if data.starts(with: "bplist".utf8) { throw Unreadable(reason: "a binary property list (afget writes XML)") }
        // afget writes UTF-8, and Foundation's XML reader stops the process (a fatal error, not
        // a thrown one) on some bytes that are not UTF-8, such as 0xFD inside <integer>.
        guard String(validating: data, as: UTF8.self) != nil else { throw Unreadable(reason: "not UTF-8 text") }
        if nestingDepth(of: data) > maximumDepth {
            throw Unreadable(reason: "arrays or dictionaries nested more than \(maximumDepth) deep")
        }
        return try PropertyListDecoder().decode(PropertyListValue.self, from: data)
    }

    /// The deepest run of `<array>` and `<dict>` tags open at once (`<array/>` opens nothing).
    /// Text cannot hold a raw `<`, so every one found is a tag.
    private static func nestingDepth(of data: Data) -> Int {
        let bytes = Array(data)
        var depth = 0
        var deepest = 0
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let tag = bytes[(open + 1)...].prefix { $0 != UInt8(ascii: ">") }
            let closesItself = tag.last == UInt8(ascii: "/")
            if tag.starts(with: "array".utf8) || tag.starts(with: "dict".utf8) {
                if !closesItself { depth += 1 }
            } else if tag.starts(with: "/array".utf8) || tag.starts(with: "/dict".utf8) {
                depth -= 1
            }
            deepest = max(deepest, depth)
            index = open + 1 + tag.count
        }
        return deepest
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

/// Resume data and upload records: afget's own property lists, written from strings and
/// integers and read back as a dictionary whose every value is checked.
extension PropertyListValue {
    /// `members` as an XML property list, keys in order. Strings and integers only: every one
    /// has a property-list form, so this cannot fail.
    static func xmlData(_ members: [Parameter.Member]) -> Data {
        let text = (try? PropertyListText.xml(.dictionary(members.sorted { $0.key < $1.key }))) ?? ""
        return Data(text.utf8)
    }

    /// The dictionary `data` holds, or what is wrong with it.
    static func dictionary(in data: Data) throws(ResumeDataError) -> [String: PropertyListValue] {
        let root: PropertyListValue
        do {
            root = try parse(data)
        } catch let unreadable as Unreadable {
            throw ResumeDataError(unreadable.reason)
        } catch {
            throw ResumeDataError("not a property list")
        }
        guard case .dictionary(let dictionary) = root else { throw ResumeDataError("not a dictionary") }
        return dictionary
    }
}
