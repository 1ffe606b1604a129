/// A part file that cannot be continued: the server's file is another one, the server answered
/// a range wrongly, the resume data cannot be used, or starting over is not allowed. Its words
/// are also why a download starts over (`restarting`).
public indirect enum ResumeFailure: Sendable, Equatable {
    // MARK: The server's file is not the one the part holds

    case entityTagChanged(from: String, to: String)
    case lastModifiedChanged(from: String, to: String)
    /// A coded body where the part holds the file itself.
    case otherRepresentation(codings: String)
    case lengthChanged(from: Int64, to: Int64)
    /// An FTP or SFTP file now shorter than what is asked of it (`askedPart`: a split's range).
    case nowShorter(than: Int64, askedPart: Bool)
    /// Another source of the file serves another version than `source`, whose answer fixed it
    /// (`because`: its Last-Modified or length, as that source's change would be worded).
    case otherVersionThan(source: String, because: ResumeFailure)

    // MARK: A range answered wrongly

    case wholeFileWithContentRange(String)
    case noContentRange
    case malformedContentRange(String)
    case notTheRangeAsked(contentRange: String, first: Int64, last: Int64)
    case doesNotContinue(contentRange: String, at: Int64)
    case lengthDisagrees(contentLength: Int64, contentRange: String)
    case ignoresRanges
    /// A 416 that does not say the part is whole.
    case cannotServeTheRest
    /// An FTP or SFTP answer to a range without the file's size to check it against.
    case noSizeToCheck
    /// An FTP server that refused REST.
    case refusedREST
    case cannotStartStreamOver(String)

    // MARK: The part and its resume data

    case partLarger(part: Int64, remote: Int64)
    case noResumeData(partPath: String)
    case noValidator
    case unreadableResumeData(path: String, errno: Int32)
    case resumeDataTooLarge(path: String)
    case unusableResumeData(path: String, why: String)
    case unusableKeptResumeData(partPath: String, why: String)
    /// Resume data of another URL; `resumeCommand` continues it at this one.
    case resumeDataOfAnotherURL(path: String, url: String, resumeCommand: String)
    /// A file `-c` leaves alone, and why (`ForeignPart`).
    case notContinued(ForeignPartRefusal)

    // MARK: Starting over refused

    /// A stream's bytes are given: they are not given again.
    case streamCannotGoOn(stream: String, because: ResumeFailure)
    case startedOverTooOften(because: ResumeFailure, times: Int)
    /// `--no-restart`.
    case restartRefused(because: ResumeFailure)

    /// Another version of the file: the part holds the old one, and the download starts over
    /// (not a server that mishandles ranges).
    var isEntityChange: Bool {
        switch self {
        case .entityTagChanged, .lastModifiedChanged, .otherRepresentation, .lengthChanged, .nowShorter,
            .otherVersionThan:
            true
        default: false
        }
    }

    var code: String {
        if case .otherVersionThan = self { return "other-version" }
        return isEntityChange ? "entity-changed" : "cannot-continue"
    }

    public var words: String {
        switch self {
        case .entityTagChanged(let from, let to): "the file changed on the server (ETag \(from) became \(to))"
        case .lastModifiedChanged(let from, let to): "the file changed on the server (Last-Modified \(from) became \(to))"
        case .otherRepresentation(let codings):
            "the server sent another representation (Content-Encoding \(codings) where the part holds identity)"
        case .lengthChanged(let from, let to): "the file changed on the server (its length changed from \(from) to \(to) bytes)"
        case .nowShorter(let offset, let askedPart):
            "the file changed on the server (it is now shorter than the \(offset) bytes "
                + "\(askedPart ? "where a part of it was asked for" : "already here"))"
        case .otherVersionThan(let source, .lastModifiedChanged(let there, let here)):
            "it serves another version of the file than \(source) (Last-Modified \(here) where that gave \(there))"
        case .otherVersionThan(let source, .lengthChanged(let there, let here)):
            "it serves another version of the file than \(source) (\(here) bytes where that gave \(there))"
        case .otherVersionThan(let source, let change): "it serves another version of the file than \(source): \(change.words)"
        case .wholeFileWithContentRange(let range):
            "an inconsistent response: a 200 (the whole file) with Content-Range \"\(range)\""
        case .noContentRange: "206 response without Content-Range"
        case .malformedContentRange(let header): "malformed Content-Range \"\(header)\""
        case .notTheRangeAsked(let header, let first, let last):
            "Content-Range \"\(header)\" is not the range asked for (bytes \(first)-\(last))"
        case .doesNotContinue(let header, let offset): "Content-Range \"\(header)\" does not continue at byte \(offset)"
        case .lengthDisagrees(let length, let header): "Content-Length \(length) disagrees with Content-Range \"\(header)\""
        case .ignoresRanges: "the server ignores ranges (it sent the whole file)"
        case .cannotServeTheRest: "the server cannot serve the rest (416)"
        case .noSizeToCheck: "the server did not give the file's size, against which a part of it is checked"
        case .refusedREST: "the server cannot send a part of a file (it refused REST)"
        case .cannotStartStreamOver(let name): "cannot start \(name) over"
        case .partLarger(let part, let remote):
            "the local part (\(part) bytes) is larger than the remote file (\(remote) bytes); use --restart to discard it"
        case .noResumeData(let path): "\(path) has no resume data, so it cannot be continued (--no-restart)"
        case .noValidator: "the server gave no ETag or Last-Modified to continue against (--no-restart)"
        case .unreadableResumeData(let path, let code): "cannot read \(path): \(describeErrno(code))"
        case .resumeDataTooLarge(let path): "\(path) is not afget resume data: larger than 1 MiB"
        case .unusableResumeData(let path, let why): "\(path) is not usable resume data: \(why)"
        case .unusableKeptResumeData(let path, let why): "the resume data kept on \(path) is not usable: \(why)"
        case .resumeDataOfAnotherURL(let path, let url, let command):
            "\(path) is resume data for \(url), not this URL; if it is the same file at a new address, "
                + "continue it with: \(command); or use --restart to discard it"
        case .notContinued(let refusal): "not continued (-c), the file is left as it is: \(refusal.words)"
        case .streamCannotGoOn(let stream, let reason):
            "cannot continue \(stream): \(reason.words); what was written there is not written again"
        case .startedOverTooOften(let reason, let times): "cannot continue: \(reason.words), after starting over \(times) times"
        case .restartRefused(let reason):
            "cannot continue: \(reason.words); the part file and resume data are kept "
                + "(--no-restart): run the same command without --no-restart to start over"
        }
    }
}

/// Why `-c` leaves a file that afget did not start alone.
public enum ForeignPartRefusal: Sendable, Equatable {
    case rangesDoNotWork
    case largerThanTheServersFile(size: Int64, total: Int64)
    case endNotAPart
    case tailDiffers(bytes: Int)
    case noValidator

    var words: String {
        switch self {
        case .rangesDoNotWork: "the server sent the whole file when asked for its end, so ranges do not work there"
        case .largerThanTheServersFile(let size, let total):
            "it is larger (\(size) bytes) than the server's file (\(total) bytes)"
        case .endNotAPart: "the server's answer to a request for the file's end was not that part of it"
        case .tailDiffers(let count): "its last \(count) bytes are not the server's: it is not a part of this file"
        case .noValidator: "the server gives no ETag or Last-Modified to continue against"
        }
    }
}
