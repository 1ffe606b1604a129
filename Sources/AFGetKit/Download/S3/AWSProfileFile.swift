import AFGetRequest
import AFGetSupport

/// `~/.aws/credentials` or `~/.aws/config`, as the AWS CLI reads them: `[section]` lines, then
/// `name = value` settings; `#` and `;` start a comment line; an indented line under a setting
/// with no value is one of its sub-settings (`s3 =` then `  addressing_style = path`), kept as
/// `s3.addressing_style`. In the config file a profile's section is `[profile NAME]` (`[default]`
/// alone is bare); in the credentials file it is `[NAME]`.
struct AWSProfileFile: Equatable {
    /// Each section's settings, by the profile's name.
    private(set) var profiles: [String: [String: String]] = [:]

    enum Kind {
        case credentials
        case config
    }

    /// Reads `text`; a line that is none of the above is refused naming `path` and its number.
    init(text: String, kind: Kind, path: String) throws(TransferFailure) {
        var section: String?
        var parent: String?
        // A CRLF is one Character, a line break as LF is.
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            let indented = raw.first == " " || raw.first == "\t"
            if line.hasPrefix("[") && line.hasSuffix("]") && !indented {
                let name = String(line.dropFirst().dropLast()).trimmingWhitespace()
                section = Self.profileName(ofSection: name, kind: kind)
                if let section, profiles[section] == nil { profiles[section] = [:] }
                parent = nil
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw TransferFailure(.input(.awsFileLine(path: path, line: number + 1)))
            }
            let name = String(line[..<equals]).trimmingWhitespace().lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard !name.isEmpty else { throw TransferFailure(.input(.awsFileLine(path: path, line: number + 1))) }
            // A setting before any section, or in a config file's section that names no
            // profile (`[sso-session x]`, `[services y]`), is not one afget reads.
            guard let section else { continue }
            if indented, let parent {
                profiles[section]?["\(parent).\(name)"] = value
            } else {
                profiles[section]?[name] = value
                parent = value.isEmpty ? name : nil
            }
        }
    }

    /// The profile a section holds: in the config file `[profile NAME]` or `[default]`.
    private static func profileName(ofSection name: String, kind: Kind) -> String? {
        guard kind == .config else { return name }
        if name == "default" { return name }
        guard name.hasPrefix("profile ") || name.hasPrefix("profile\t") else { return nil }
        return String(name.dropFirst("profile".count)).trimmingWhitespace()
    }

    /// `name` of `profile`, if it is set (and not empty).
    func value(_ name: String, in profile: String) -> String? {
        profiles[profile]?[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func has(_ profile: String) -> Bool { profiles[profile] != nil }
}
