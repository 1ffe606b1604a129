/// Parameters as a query string or an `application/x-www-form-urlencoded` body, by
/// AFNetworking's rules: dictionary keys sorted, nested dictionaries as `key[sub]=v`, arrays
/// as `key[]=v` (or `key[0]=v`, or `key=v` repeated), null as the bare key, true and false as
/// 1 and 0, and every name and value percent-escaped per RFC 3986 §3.4.
public struct QueryEncoding: Sendable, Equatable {
    public enum ArrayFormat: String, Sendable, CaseIterable {
        /// `a[]=x&a[]=y` (AFNetworking, Rails, PHP).
        case brackets
        /// `a[0]=x&a[1]=y`.
        case indices
        /// `a=x&a=y`.
        case `repeat`
    }

    public var arrayFormat: ArrayFormat

    public init(arrayFormat: ArrayFormat = .brackets) {
        self.arrayFormat = arrayFormat
    }

    /// The members of `parameters` (a dictionary) as `name=value` pairs joined by `&`.
    public func encode(_ parameters: [Parameter.Member]) -> String {
        pairs(parameters).map { pair in
            pair.value.map { Self.escape(pair.name) + "=" + Self.escape($0) } ?? Self.escape(pair.name)
        }.joined(separator: "&")
    }

    /// The flattened, unescaped pairs (a nil value is a bare name): the fields of a multipart form.
    public func pairs(_ parameters: [Parameter.Member]) -> [(name: String, value: String?)] {
        var pairs: [(name: String, value: String?)] = []
        for member in Self.sorted(parameters) {
            appendPairs(key: member.key, value: member.value, to: &pairs)
        }
        return pairs
    }

    private func appendPairs(key: String, value: Parameter, to pairs: inout [(name: String, value: String?)]) {
        switch value {
        case .dictionary(let members):
            for member in Self.sorted(members) {
                appendPairs(key: "\(key)[\(member.key)]", value: member.value, to: &pairs)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                switch arrayFormat {
                case .brackets: appendPairs(key: key + "[]", value: element, to: &pairs)
                case .indices: appendPairs(key: "\(key)[\(index)]", value: element, to: &pairs)
                case .repeat: appendPairs(key: key, value: element, to: &pairs)
                }
            }
        case .null:
            pairs.append((key, nil))
        case .string(let text), .number(let text):
            pairs.append((key, text))
        case .bool(let flag):
            pairs.append((key, flag ? "1" : "0"))
        }
    }

    private static func sorted(_ members: [Parameter.Member]) -> [Parameter.Member] {
        members.sorted { $0.key < $1.key }
    }

    /// Percent-escapes everything but RFC 3986 unreserved characters, `?` and `/` (the
    /// characters a query may carry unescaped without being taken for a delimiter).
    /// Works on the UTF-8 bytes of the whole string, so no grapheme cluster is ever split.
    public static func escape(_ text: String) -> String {
        escape(text) { isUnreserved($0) || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "/") }
    }

    /// Percent-escapes all but unreserved characters, for one segment of a path (an uploaded
    /// file's name): there a `?` would start the query and a `/` another segment.
    public static func escapePathSegment(_ text: String) -> String {
        escape(text, leavingAsIs: isUnreserved)
    }

    /// Percent-escapes all but unreserved characters in bytes that need not be UTF-8 (a file's,
    /// for curl's `--data-urlencode`), as curl_easy_escape does.
    public static func escapeBytes(_ bytes: [UInt8]) -> [UInt8] {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count)
        for byte in bytes {
            if isUnreserved(byte) {
                escaped.append(byte)
            } else {
                escaped += [UInt8(ascii: "%"), hexBytes[Int(byte >> 4)], hexBytes[Int(byte & 0x0F)]]
            }
        }
        return escaped
    }

    private static func escape(_ text: String, leavingAsIs isLeftAsIs: (UInt8) -> Bool) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isLeftAsIs(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0F)])
            }
        }
        return escaped
    }

    private static let hexDigits = Array("0123456789ABCDEF")
    private static let hexBytes = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
