import AFGetSupport

/// One `afget request` item, in httpie's syntax: `name=value` (a parameter), `name==value`
/// (always in the query), `Name:value` (a header), `name:=JSON` (a raw JSON value) and
/// `field@path` (a file field, which makes the body multipart).
public enum RequestItem: Sendable, Equatable {
    case parameter(name: String, value: Parameter)
    case query(name: String, value: String)
    /// An empty value removes a header afget would send by default.
    case header(HTTPHeader)
    case file(field: String, path: String)

    /// Parses an item; the separator that comes first wins, the longer one at a tie
    /// (`a:=1` is JSON, not a header; `q==x` is a query, not a parameter).
    public static func parse(_ argument: String) throws(TransferFailure) -> RequestItem {
        let separators = [":=", "==", "=", ":", "@"]
        var best: (index: String.Index, separator: String)?
        for separator in separators {
            guard let range = argument.firstRange(of: separator) else { continue }
            if best == nil || range.lowerBound < best!.index
                || (range.lowerBound == best!.index && separator.count > best!.separator.count)
            {
                best = (range.lowerBound, separator)
            }
        }
        guard let (index, separator) = best, index != argument.startIndex else {
            throw TransferFailure(.input(.itemMalformed(argument)))
        }
        let name = String(argument[..<index])
        let value = String(argument[argument.index(index, offsetBy: separator.count)...])
        switch separator {
        case "=":
            return .parameter(name: name, value: .string(value))
        case "==":
            return .query(name: name, value: value)
        case ":=":
            do {
                return .parameter(name: name, value: try JSONText.parse(value))
            } catch {
                throw TransferFailure(.input(.itemJSONInvalid(item: argument, value: value, said: error.message)))
            }
        case ":":
            return .header(try HTTPHeader.parse(argument))
        default:
            guard !value.isEmpty else { throw TransferFailure(.input(.itemNamesNoFile(argument))) }
            return .file(field: name, path: value)
        }
    }
}
