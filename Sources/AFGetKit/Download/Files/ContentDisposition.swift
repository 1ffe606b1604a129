import AFGetSupport
/// The file name a `Content-Disposition` header suggests (RFC 6266): `filename*` (RFC 8187,
/// UTF-8 or ISO-8859-1, percent-encoded) preferred over `filename` (a token or a quoted
/// string). The name is returned as the server gave it; `FileNaming.safeComponent` makes it
/// safe before it is used.
public enum ContentDisposition {
    public static func filename(from value: String) -> String? {
        let parameters = self.parameters(of: value)
        if let extended = parameters["filename*"], let decoded = decodeExtended(extended), !decoded.isEmpty {
            return decoded
        }
        if let plain = parameters["filename"], !plain.isEmpty {
            return plain
        }
        return nil
    }

    /// `type; name=value; name="quoted \" value"` → lowercased names → values (unquoted).
    static func parameters(of value: String) -> [String: String] {
        var parameters: [String: String] = [:]
        var scalars = Substring(value).unicodeScalars[...]
        // Skip the disposition type.
        while let first = scalars.first, first != ";" { scalars.removeFirst() }
        while !scalars.isEmpty {
            scalars.removeFirst()  // the ";"
            var name = ""
            while let first = scalars.first, first != "=", first != ";" {
                name.unicodeScalars.append(first)
                scalars.removeFirst()
            }
            guard scalars.first == "=" else { continue }
            scalars.removeFirst()
            while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
            var parameterValue = ""
            if scalars.first == "\"" {
                scalars.removeFirst()
                while let first = scalars.first, first != "\"" {
                    scalars.removeFirst()
                    if first == "\\", let escaped = scalars.first {
                        parameterValue.unicodeScalars.append(escaped)
                        scalars.removeFirst()
                    } else {
                        parameterValue.unicodeScalars.append(first)
                    }
                }
                while let first = scalars.first, first != ";" { scalars.removeFirst() }
            } else {
                while let first = scalars.first, first != ";" {
                    parameterValue.unicodeScalars.append(first)
                    scalars.removeFirst()
                }
                parameterValue = parameterValue.trimmingWhitespace()
            }
            let key = name.trimmingWhitespace().lowercased()
            // The first occurrence counts: a second filename cannot override the first.
            if parameters[key] == nil { parameters[key] = parameterValue }
        }
        return parameters
    }

    /// `UTF-8'en'na%C3%AFve.txt` → `naïve.txt`; nil for another charset or bad escapes.
    static func decodeExtended(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let bytes = percentDecodedBytes(parts[2].utf8) else { return nil }
        switch parts[0].lowercased() {
        case "utf-8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }

}
