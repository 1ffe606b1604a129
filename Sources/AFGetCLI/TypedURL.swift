/// A URL as people type it on the command line: `afget example.org/file` and
/// `afget 127.0.0.1:8080/x` mean `http://`, as they do to curl and wget. Only the command line's
/// URL arguments are read so: a line of an `-i` list without a scheme stays refused, since in a
/// file made by a program or kept for years it is far more often a mistake (a file name, a
/// comment without its `#`, an option line that lost its indent) than a URL typed in a hurry.
enum TypedURL {
    /// `word` with `http://` in front when it names no scheme and is not a local path; anything
    /// else as it is (a local path is then refused as "not a URL", naming the schemes).
    static func completed(_ word: String) -> String {
        guard !word.isEmpty, !word.contains("://"), !isLocalPath(word) else { return word }
        return "http://" + word
    }

    /// `/srv/f`, `./f`, `../f`, `~/f`, `.` and `..`: a path in the local file system, never a
    /// host. (`file.txt` alone is a host name to curl and wget alike, and so to afget.)
    static func isLocalPath(_ word: String) -> Bool {
        word.hasPrefix("/") || word.hasPrefix("./") || word.hasPrefix("../") || word.hasPrefix("~") || word == "."
            || word == ".."
    }

    /// A word that is clearly a URL without its scheme, not a file name: a host with a dot or a
    /// port (or `localhost`), then a path (`example.org/f.iso`, `127.0.0.1:8080/x`). `out.html`
    /// and `pages/out.html` are not: beside such a URL they are read as the file wget's `-O`
    /// names.
    static func isHostAndPath(_ word: String) -> Bool {
        guard !word.contains("://"), !isLocalPath(word), !word.hasPrefix("-"), let slash = word.firstIndex(of: "/") else {
            return false
        }
        let host = word[..<slash]
        return host.contains(".") || host.contains(":") || host.lowercased() == "localhost"
    }
}
