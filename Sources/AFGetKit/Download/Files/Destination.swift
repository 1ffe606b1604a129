import AFGetProgress
import AFGetSupport
import CurlCore
import Glibc

/// Where a download goes once the output target and `--on-exists` have been applied.
public enum Destination: Sendable, Equatable {
    case standardOutput
    case file(path: String)
    /// An existing character device or FIFO given with `-o` (`-o /dev/null`), or `/dev/stderr`:
    /// written in place, as there is no file to complete and rename over it.
    case stream(path: String)
    /// The file is already there and the policy says leave it.
    case skip(path: String, reason: SkipReason)
    /// The file is there, `size` bytes long; replace it only if the server's copy changed
    /// after `modifiedAt`, or is of another size.
    case update(path: String, modifiedAt: Int64, size: Int64)

    /// Resolves `target` for `url`. Only looks; creates nothing. `listings` may say the path
    /// was not there without a look-up.
    static func resolve(
        _ target: OutputTarget, for url: CurlURL, onExists policy: OnExistsPolicy, listings: DirectoryListings? = nil
    ) throws(TransferFailure) -> Destination {
        let path: String
        switch target {
        case .standardOutput:
            return .standardOutput
        case .path(let given):
            if OutputStream.named(given) != nil { return .stream(path: given) }
            path = given
        case .directory(let directory):
            path = joinPath(directory, FileNaming.name(forURLPath: url.path))
        }
        // Kept exactly or refused (DESIGN.md §5): resume data, an XML property list, cannot hold
        // a control character, so such a name could not be continued.
        if let control = path.utf8.first(where: TerminalText.isASCIIControl) {
            throw TransferFailure(.input(.pathHasControlCharacter(path: path, byte: control)))
        }
        if FileNaming.isWorkingFileName(path) {
            throw TransferFailure(.input(.workingFileName(splitPath(path).name)))
        }
        guard listings?.isAbsent(path) != true, let kind = fileKind(at: path, followingSymlinks: true) else {
            return .file(path: path)
        }
        switch kind {
        case S_IFDIR:
            throw TransferFailure(.file(.isDirectory(path: path)))
        case S_IFCHR, S_IFIFO:
            if case .path = target { return .stream(path: path) }
            throw TransferFailure(.file(.existsNotRegular(path: path)))
        case S_IFREG, S_IFLNK:
            break
        default:
            throw TransferFailure(.file(.existsNotRegular(path: path)))
        }
        switch policy {
        case .skip:
            return .skip(path: path, reason: existsReason(path))
        case .overwrite:
            return .file(path: path)
        case .update:
            var status = stat()
            guard stat(path, &status) == 0 else { throw fileFailure(.inspect, path, errno: errno) }
            return .update(path: path, modifiedAt: Int64(status.st_mtim.tv_sec), size: Int64(status.st_size))
        case .error:
            throw TransferFailure(.file(.exists(path: path)))
        case .rename:
            return .file(path: firstFreeName(after: path))
        }
    }

    /// A part file beside a destination that exists is left from an unfinished earlier download
    /// (the file came some other way): said, so it is not found and skipped again unexplained on
    /// every run, and left as it is. A file alone may be another tool's, cut short: the line
    /// then says how to continue or replace it.
    private static func existsReason(_ path: String) -> SkipReason {
        let part = FileNaming.workingFileStem(for: path) + PartFile.suffix
        guard fileKind(at: part) != nil else { return SkipReason("already exists", advice: .continueOrReplace) }
        return "already exists; \(splitPath(part).name) beside it is from an unfinished download and is left as it is"
    }

    /// `name.1.ext`, `name.2.ext`, ...: the first with neither a file nor a part file.
    private static func firstFreeName(after path: String) -> String {
        let (directory, name) = splitPath(path)
        var number = 1
        while true {
            let candidate = joinPath(directory, FileNaming.numbered(name, number))
            if fileKind(at: candidate) == nil && fileKind(at: FileNaming.workingFileStem(for: candidate) + PartFile.suffix) == nil
            {
                return candidate
            }
            number += 1
        }
    }
}
