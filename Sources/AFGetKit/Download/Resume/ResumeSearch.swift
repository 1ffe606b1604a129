import AFGetSupport
import Glibc

/// `afget resume` without a path where the current directory holds no resume data: the
/// directories below it that do, as a download started with `-d downloads` leaves them. The
/// search is bounded so that a run in a home directory answers at once: `depth` levels down,
/// at most `directoryLimit` directories read, breadth first (the nearest found first). Hidden
/// directories and symbolic links are passed over: a `.git` or a link out of the tree is
/// nowhere a download was started.
enum ResumeSearch {
    static let depth = 3
    static let directoryLimit = 1000

    /// The directories below `root` (named from it: "downloads", "a/b") holding `.afresume`
    /// files, in the order found: by level, then by name.
    static func directoriesHoldingResumeData(below root: String) -> [String] {
        var found: [String] = []
        var level = subdirectories(of: root).map { joinPath(root, $0) }
        var read = 0
        for _ in 0..<depth {
            var next: [String] = []
            for directory in level {
                guard read < directoryLimit else { return found }
                read += 1
                let (holdsResumeData, below) = look(in: directory)
                if holdsResumeData { found.append(directory) }
                next += below.map { joinPath(directory, $0) }
            }
            level = next
        }
        return found
    }

    private static func subdirectories(of directory: String) -> [String] {
        look(in: directory).subdirectories
    }

    /// One reading of `directory`: whether a resume file is in it, and its subdirectories'
    /// names, sorted (an unreadable directory has neither).
    private static func look(in directory: String) -> (holdsResumeData: Bool, subdirectories: [String]) {
        guard let handle = opendir(directory) else { return (false, []) }
        defer { closedir(handle) }
        let suffix = Array(ResumeStore.suffix.utf8)
        var holdsResumeData = false
        var subdirectories: [String] = []
        while let entry = readdir(handle) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            guard let name = String(validating: bytes, as: UTF8.self), !name.hasPrefix(".") else { continue }
            if bytes.count > suffix.count, bytes.suffix(suffix.count).elementsEqual(suffix) {
                holdsResumeData = true
            } else if isDirectory(entry.pointee.d_type, joinPath(directory, name)) {
                subdirectories.append(name)
            }
        }
        return (holdsResumeData, subdirectories.sorted())
    }

    /// A directory, not a link to one: from the entry's type where the file system gives it.
    private static func isDirectory(_ type: UInt8, _ path: String) -> Bool {
        Int(type) == Int(DT_UNKNOWN) ? fileKind(at: path) == S_IFDIR : Int(type) == Int(DT_DIR)
    }
}
