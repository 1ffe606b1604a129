import AFGetSupport
import Glibc

/// The login a netrc file gives for a host, read as libcurl reads it: whitespace-separated
/// tokens (a token in double quotes may hold spaces, with `\` escaping the next character), a
/// line whose first token starts with `#` skipped, the first `machine` naming the host
/// (case-insensitively) or a `default` being the entry, `login` its user.
///
/// It decides who an SSH server is logged in as when neither the URL nor `-u` names a user:
/// libcurl consults netrc only while no user is set, so afget sets the local user (as ssh(1)
/// does) only when netrc has no login for the host; otherwise libcurl takes login and password
/// from netrc itself.
enum NetrcLogin {
    /// The login of `host`'s entry in the netrc file at `path`; nil when the file cannot be
    /// read, has no entry for the host, or the entry has no login.
    static func login(for host: String, inFile path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard case .success(let bytes) = readAll(descriptor, limit: 1 << 20) else { return nil }
        return login(for: host, in: String(decoding: bytes, as: UTF8.self))
    }

    static func login(for host: String, in text: String) -> String? {
        var keyword: String?
        var inEntry = false
        for line in text.split(whereSeparator: \.isNewline) {
            let tokens = tokens(of: line)
            if tokens.first?.hasPrefix("#") == true { continue }
            for token in tokens {
                if let pending = keyword {
                    keyword = nil
                    switch pending {
                    case "machine":
                        // The host's entry ended without a login.
                        if inEntry { return nil }
                        inEntry = token.lowercased() == host.lowercased()
                    case "login":
                        if inEntry { return token }
                    default:
                        break  // a password's or an account's value
                    }
                    continue
                }
                switch token {
                case "machine", "login", "password", "account": keyword = token
                case "default":
                    if inEntry { return nil }
                    inEntry = true
                default: break
                }
            }
        }
        return nil
    }

    /// A line's tokens: runs of non-blank characters, or a quoted string without its quotes.
    private static func tokens(of line: Substring) -> [String] {
        var tokens: [String] = []
        var characters = line.makeIterator()
        var token = ""
        var started = false
        while let character = characters.next() {
            if character == "\"" && !started {
                started = true
                while let quoted = characters.next(), quoted != "\"" {
                    if quoted == "\\", let escaped = characters.next() {
                        token.append(escaped)
                    } else {
                        token.append(quoted)
                    }
                }
            } else if character == " " || character == "\t" {
                if started { tokens.append(token) }
                token = ""
                started = false
            } else {
                token.append(character)
                started = true
            }
        }
        if started { tokens.append(token) }
        return tokens
    }
}
