import AFGetRequest
import FoundationEssentials

@testable import AFGetKit

/// Property-list text (`afget request --plist` bodies, and resume data's writer): a parameter
/// tree from JSON is written as an XML property list, read back by Foundation's reader (as
/// afget reads resume data), and must be the same tree; what has no property-list form is
/// refused, saying what.
enum PropertyListTextTarget: FuzzTarget {
    static let name = "plist-text"

    static func fuzz(_ input: [UInt8]) {
        guard let value = try? JSONText.parse(input) else { return }
        let text: String
        do {
            text = try PropertyListText.xml(value)
        } catch {
            expect(contains(value, where: isUnrepresentable), "refused what it can write: \(error.message)")
            expect(error.message.contains("null") || error.message.contains("too large"), "a refusal of \(error.message)")
            return
        }
        expect(!contains(value, where: isUnrepresentable), "wrote what it cannot")
        do {
            let read = try PropertyListValue.parse(Data(text.utf8))
            expect(same(value, read), "written and read back, it changed: \(read)")
        } catch {
            expect(false, "written, then refused by the reader: \(error)")
        }
    }

    /// The parameter and what the reader made of it mean the same: dictionaries by key (the last
    /// of a repeated key), numbers by value.
    private static func same(_ value: Parameter, _ read: PropertyListValue) -> Bool {
        switch (value, read) {
        case (.string(let text), .string(let readText)): return text == readText
        case (.bool(let flag), .bool(let readFlag)): return flag == readFlag
        case (.number(let text), .integer(let number)): return Double(text) == Double(number)
        case (.number(let text), .real(let number)): return Double(text) == number
        case (.array(let elements), .array(let readElements)):
            return elements.count == readElements.count && zip(elements, readElements).allSatisfy(same)
        case (.dictionary(let members), .dictionary(let readMembers)):
            var last: [String: Parameter] = [:]
            for member in members { last[member.key] = member.value }
            return last.count == readMembers.count
                && last.allSatisfy { key, value in readMembers[key].map { same(value, $0) } ?? false }
        default: return false
        }
    }

    /// Null, and integers past 64 bits, have no property-list form.
    private static func isUnrepresentable(_ value: Parameter) -> Bool {
        switch value {
        case .null: return true
        case .number(let text): return !text.contains { ".eE".contains($0) } && Int64(text) == nil
        default: return false
        }
    }

    private static func contains(_ value: Parameter, where matches: (Parameter) -> Bool) -> Bool {
        if matches(value) { return true }
        switch value {
        case .array(let elements): return elements.contains { contains($0, where: matches) }
        case .dictionary(let members): return members.contains { contains($0.value, where: matches) }
        default: return false
        }
    }
}
