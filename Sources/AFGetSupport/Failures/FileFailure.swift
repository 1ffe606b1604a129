import Glibc

/// A local file that cannot be made, written, synced or moved, or that is in the way.
public enum FileFailure: Sendable, Equatable {
    /// A system call on `path` failed: "cannot create f.iso.afpart: Permission denied".
    case cannot(FileAction, path: String, errno: Int32)
    /// A finished file could not take its destination's name.
    case cannotMove(path: String, to: String, errno: Int32)
    /// The system's reason alone, where the item already names the file.
    case system(errno: Int32)
    /// A part file's place is a symbolic link, which afget does not write through.
    case symbolicLink(path: String)
    /// A part file's place holds something else than a file.
    case notRegular(path: String)
    /// A destination's place holds something else than a file.
    case existsNotRegular(path: String)
    case isDirectory(path: String)
    /// A directory to create is a file.
    case fileInTheWay(directory: String)
    /// No room to reserve the whole file (`posix_fallocate`).
    case noRoom(path: String, length: Int64, errno: Int32)
    /// The file system's largest file is smaller than the file.
    case tooLargeForFileSystem(path: String, length: Int64, errno: Int32)
    /// A name longer than a file system allows (`NAME_MAX`).
    case nameTooLong(bytes: Int, most: Int)
    /// A name that resume data cannot hold exactly (`-c` and `--continue-all`).
    case nameNotUTF8
    /// A path named on the command line that is not there (`--continue-all`).
    case noSuchPath
    case noSuchFile
    /// A directory `--continue-all` could not list.
    case unreadableDirectory(errno: Int32)
    /// An existing destination that could not be read to check its checksum.
    case unreadableForChecksum(path: String)
    /// An upload's file ended before the length it had when the request began.
    case shrank(path: String, sent: Int64, size: Int64)
    /// The request body (a file, standard input) could not be read.
    case unreadableRequestBody(errno: Int32)
    /// A file sent to S3 in parts changed (size or time) before its last part went: the parts
    /// already sent are of another version, so the object would be a splice.
    case changedWhileUploading(path: String)
    /// Fewer descriptors may be open than one transfer needs (`ulimit -n`).
    case tooFewDescriptors(limit: Int, open: Int, needed: Int)
    /// Another afget holds the part file's lock: it is downloading the same file.
    case lockedByAnother(path: String)
    /// Another afget made the part file between the look and the creation.
    case appearedMeanwhile(path: String)
    /// The destination exists and `--on-exists error` says not to touch it.
    case exists(path: String)
    /// The destination appeared while the file was downloaded: it is not replaced.
    case appearedWhileDownloaded(path: String)

    var failureClass: FailureClass {
        switch self {
        case .lockedByAnother, .appearedMeanwhile: .destinationBusy
        case .exists, .appearedWhileDownloaded: .destinationExists
        default: .localFile
        }
    }

    var code: String {
        switch self {
        case .cannot(let action, _, _): "cannot-\(action.code)"
        case .cannotMove: "cannot-move"
        case .system: "system"
        case .symbolicLink: "symbolic-link"
        case .notRegular, .existsNotRegular: "not-a-file"
        case .isDirectory: "is-a-directory"
        case .fileInTheWay: "file-in-the-way"
        case .noRoom: "no-space"
        case .tooLargeForFileSystem: "too-large-for-file-system"
        case .nameTooLong: "name-too-long"
        case .nameNotUTF8: "name-not-utf8"
        case .noSuchPath, .noSuchFile: "no-such-path"
        case .unreadableDirectory: "cannot-read-directory"
        case .unreadableForChecksum: "cannot-read-for-checksum"
        case .shrank: "file-shrank"
        case .changedWhileUploading: "file-changed"
        case .unreadableRequestBody: "cannot-read-request-body"
        case .tooFewDescriptors: "too-few-descriptors"
        case .lockedByAnother, .appearedMeanwhile: "busy"
        case .exists: "exists"
        case .appearedWhileDownloaded: "appeared"
        }
    }

    var words: String {
        switch self {
        case .cannot(let action, let path, let code): "cannot \(action.rawValue) \(path): \(describeErrno(code))"
        case .cannotMove(let path, let destination, let code):
            "cannot move \(path) to \(destination): \(describeErrno(code))"
        case .system(let code): describeErrno(code)
        case .symbolicLink(let path): "\(path) is a symbolic link; refusing to write through it"
        case .notRegular(let path): "\(path) is not a regular file"
        case .existsNotRegular(let path): "\(path) exists and is not a regular file"
        case .isDirectory(let path): "\(path) is a directory"
        case .fileInTheWay(let directory): "cannot create directory \(directory): a file is in the way"
        case .noRoom(let path, let length, let code):
            "no room for \(path) (\(Formatting.bytes(length)) in all): \(describeErrno(code))"
        case .tooLargeForFileSystem(let path, let length, let code):
            "\(path) cannot grow to \(Formatting.bytes(length)): larger than a file on this file system may be "
                + "(\(describeErrno(code)))"
        case .nameTooLong(let bytes, let most):
            "the file name is \(bytes) bytes long, more than the \(most) a file system allows; choose a shorter name"
        case .nameNotUTF8: "the name is not valid UTF-8, so afget cannot name its files exactly; rename it to continue it"
        case .noSuchPath: "no such file or directory"
        case .noSuchFile: "no such file"
        case .unreadableDirectory(let code): "cannot read the directory: \(describeErrno(code))"
        case .unreadableForChecksum(let path): "cannot read \(path) to check its checksum"
        case .shrank(let path, let sent, let size): "\(path) shrank while being sent: it ended after \(sent) of its \(size) bytes"
        case .changedWhileUploading(let path):
            "\(path) changed while its parts were sent: run the same command again to send it from the start"
        case .unreadableRequestBody(let code): "cannot read the request body: \(describeErrno(code))"
        case .tooFewDescriptors(let limit, let open, let needed):
            "too few files may be open (ulimit -n \(limit)): \(open) are open already and a transfer needs \(needed) more"
        case .lockedByAnother(let path): "another afget is downloading this file (it holds the lock on \(path))"
        case .appearedMeanwhile(let path): "another afget is downloading this file (\(path) appeared meanwhile)"
        case .exists(let path): "\(path) already exists (--on-exists error)"
        case .appearedWhileDownloaded(let path): "\(path) appeared while it was downloaded; it is left as it is"
        }
    }

    var systemErrorCode: Int32? {
        switch self {
        case .cannot(_, _, let code), .cannotMove(_, _, let code), .system(let code), .noRoom(_, _, let code),
            .tooLargeForFileSystem(_, _, let code),
            .unreadableDirectory(let code), .unreadableRequestBody(let code):
            code
        case .nameTooLong: ENAMETOOLONG
        default: nil
        }
    }
}

/// What afget tried to do to a file, as the words say it: "cannot create …".
public enum FileAction: String, Sendable {
    case create
    case createDirectory = "create directory"
    case inspect
    case lock
    case open
    case read
    case rename
    case replace
    case setModeOf = "set the mode of"
    case sync
    case truncate
    case write
    case writeTheReport = "write the report"
    case readTheSSHKey = "read the SSH key"
    case readTheNetrcFile = "read the netrc file"
    case writeTheCookieJar = "write the cookie jar"
    /// The crawl's queue of links, spilled to a file in the temporary directory.
    case keepTheCrawlQueue = "keep the crawl's queue in"
    /// The list of pages `-k` rewrites once the crawl is over, in the temporary directory.
    case keepTheCrawlPages = "keep the list of the crawl's pages in"
    /// A page `-k` rewrote, written beside it and renamed over it.
    case convertLinks = "convert the links of"

    /// As the report's code says it: "cannot-" and this.
    var code: String {
        switch self {
        case .createDirectory: "create-directory"
        case .setModeOf: "set-mode"
        case .writeTheReport: "write-report"
        case .readTheSSHKey: "read-ssh-key"
        case .readTheNetrcFile: "read-netrc"
        case .writeTheCookieJar: "write-cookie-jar"
        case .keepTheCrawlQueue: "keep-crawl-queue"
        case .keepTheCrawlPages: "keep-crawl-pages"
        case .convertLinks: "convert-links"
        default: rawValue
        }
    }
}
