import AFGetRequest

/// Query strings and form bodies from parameters (items and JSON trees): every name and value
/// is escaped so that splitting the text on `&` and `=` and decoding the escapes gives back
/// exactly the pairs, in each array format.
enum QueryTarget: FuzzTarget {
    static let name = "query"

    static func fuzz(_ input: [UInt8]) {
        // JSON gives trees; anything else is one value under a name made of the first half.
        let members: [Parameter.Member]
        if case .dictionary(let tree)? = try? JSONText.parse(input) {
            members = tree
        } else {
            let half = input.count / 2
            members = [Parameter.Member(Array(input[..<half]).text, .string(Array(input[half...]).text))]
        }
        for format in QueryEncoding.ArrayFormat.allCases {
            let encoding = QueryEncoding(arrayFormat: format)
            let text = encoding.encode(members)
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~?/%=&".utf8)
            expect(text.utf8.allSatisfy(allowed.contains), "an unescaped byte in \(text)")
            let expected = encoding.pairs(members).map { Pair(name: $0.name, value: $0.value) }
            let decoded: [Pair] = text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return Pair(name: percentDecoded(parts[0]), value: parts.count == 2 ? percentDecoded(parts[1]) : nil)
            }
            if text.isEmpty {
                // One empty name with no value writes nothing, as no pair does.
                expect(expected.count <= 1 && expected.allSatisfy { $0 == Pair(name: "", value: nil) }, "\(format): no text")
            } else {
                expect(decoded == expected, "\(format): \(text) decodes to other pairs")
            }
            for pair in expected {
                let segment = QueryEncoding.escapePathSegment(pair.name)
                expect(!segment.contains("/") && !segment.contains("?"), "a path segment \(segment)")
                expect(percentDecoded(Substring(segment)) == pair.name, "path segment \(segment) does not decode back")
            }
        }
    }

    private struct Pair: Equatable {
        let name: String
        let value: String?
    }

    /// `%XX` to its byte; the text was escaped from UTF-8, so it decodes to UTF-8.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        while index < text.utf8.endIndex {
            let byte = text.utf8[index]
            if byte == UInt8(ascii: "%") {
                let digits = text.utf8[text.utf8.index(after: index)...].prefix(2)
                let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16)
                expect(digits.count == 2 && value != nil, "a broken escape in \(text)")
                bytes.append(value ?? 0)
                index = text.utf8.index(index, offsetBy: 3, limitedBy: text.utf8.endIndex) ?? text.utf8.endIndex
            } else {
                bytes.append(byte)
                index = text.utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
