import Glibc

/// The file type bits of whatever is at `path`, or nil. A final symlink is itself the answer
/// unless `followingSymlinks` (a dangling one then counts as nothing there).
package func fileKind(at path: String, followingSymlinks: Bool = false) -> mode_t? {
    var status = stat()
    // lstat first: nothing there (the usual case for a new download) is one call.
    guard lstat(path, &status) == 0 else { return nil }
    let kind = status.st_mode & S_IFMT
    guard followingSymlinks, kind == S_IFLNK, stat(path, &status) == 0 else { return kind }
    return status.st_mode & S_IFMT
}

package func joinPath(_ directory: String, _ name: String) -> String {
    if directory.isEmpty || directory == "." { return name }
    // Made in one allocation: `directory + "/" + name` made two, for every item's path.
    let separator = directory.hasSuffix("/") ? "" : "/"
    var path = ""
    path.reserveCapacity(directory.utf8.count + separator.utf8.count + name.utf8.count)
    path += directory
    path += separator
    path += name
    return path
}

/// ("dir", "name") for "dir/name"; (".", "name") for "name".
package func splitPath(_ path: String) -> (directory: String, name: String) {
    // By bytes: "/" is never part of another character in UTF-8, and searching the string's
    // characters instead was a few per cent of a batch of small files.
    guard let (directory, name) = path.split(atLastByte: UInt8(ascii: "/")) else { return (".", path) }
    return (directory.isEmpty ? "/" : String(directory), String(name))
}

/// `mkdir -p`: creates `path` and its missing parents.
package func createDirectories(_ path: String) throws(TransferFailure) {
    guard !path.isEmpty, fileKind(at: path) == nil else {
        if let kind = fileKind(at: path), kind != S_IFDIR {
            throw TransferFailure(.file(.fileInTheWay(directory: path)))
        }
        return
    }
    let (parent, _) = splitPath(path)
    if parent != path && parent != "." && parent != "/" {
        try createDirectories(parent)
    }
    if mkdir(path, 0o777) != 0 && errno != EEXIST {
        throw fileFailure(.createDirectory, path, errno: errno)
    }
}
