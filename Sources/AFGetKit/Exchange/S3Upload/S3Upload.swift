import AFGetRequest
import AFGetSupport
import Glibc

/// One file and the object it becomes.
public struct S3Upload: Sendable, Equatable {
    public let file: String
    public let location: S3Location

    public init(file: String, location: S3Location) {
        self.file = file
        self.location = location
    }

    /// What `afget upload FILE... s3://BUCKET/KEY` sends: each file to the key, or, to a key
    /// ending in `/` (a prefix, or the bucket alone), to the prefix and the file's name. With
    /// `recursive`, each FILE is a directory whose regular files go to the prefix and their
    /// path below it (symbolic links and other kinds are passed over, so a link cannot take
    /// the walk out of the directory or round in a circle).
    public static func targets(_ files: [String], to location: S3Location, recursive: Bool)
        throws(ItemFailure) -> [S3Upload]
    {
        var uploads: [S3Upload] = []
        for file in files {
            let name = splitPath(trimmingSlashes(file)).name
            guard recursive else {
                let key = location.isPrefix ? location.key + name : location.key
                uploads.append(S3Upload(file: file, location: S3Location(bucket: location.bucket, key: key)))
                continue
            }
            let prefix = location.isPrefix ? location.key : location.key + "/"
            var found: [String] = []
            try walk(file, below: "", into: &found)
            for path in found.sorted() {
                uploads.append(
                    S3Upload(file: joinPath(file, path), location: S3Location(bucket: location.bucket, key: prefix + path)))
            }
        }
        return uploads
    }

    private static func trimmingSlashes(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The regular files below `root/relative`, as paths relative to `root`.
    private static func walk(_ root: String, below relative: String, into found: inout [String]) throws(ItemFailure) {
        let directory = relative.isEmpty ? root : joinPath(root, relative)
        guard let stream = opendir(directory) else {
            throw ItemFailure(item: directory, fileFailure(.read, directory, errno: errno))
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var status = stat()
            guard lstat(joinPath(root, path), &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFREG: found.append(path)
            case S_IFDIR: try walk(root, below: path, into: &found)
            default: continue
            }
        }
    }
}
