import Glibc

/// What went wrong, with its data: the one value a failure is. Its group says where it
/// happened (a connection, a server's answer, the user's input, a local file, a part file, a
/// checksum, afget's own stop), and each group's cases carry what the words, the exit status and
/// the report need. A batch gives up on a host whose items keep failing the same way, a split
/// download tells a changed file from a server that mishandles ranges, and the report and JSON
/// events carry the code and the data so that a script can act on a failure without reading
/// prose. The words of each reason are written once, in its group's file (`words`).
public enum FailureReason: Sendable, Equatable {
    /// A connection that could not be made or kept: the host, a proxy, TLS, a time limit.
    case connection(ConnectionFailure)
    /// A server's answer that is not the file: a status, a refusal, a body too long or too short.
    case response(ResponseFailure)
    /// Something the user gave afget that it cannot use: an option, a list line, a document.
    case input(InputFailure)
    /// A local file that cannot be made, written, synced or moved, or that is in the way.
    case file(FileFailure)
    /// A part file that cannot be continued.
    case resume(ResumeFailure)
    /// A checksum that did not match, or could not be checked.
    case checksum(ChecksumFailure)
    /// afget stopped the work itself.
    case stop(StopFailure)

    /// The class every failure of this reason has, and so its exit status.
    public var failureClass: FailureClass {
        switch self {
        case .connection(let reason): reason.failureClass
        case .response(let reason): reason.failureClass
        case .input: .usage
        case .file(let reason): reason.failureClass
        case .resume: .resumeConflict
        case .checksum(let reason): reason.failureClass
        case .stop: .internalError
        }
    }

    /// The code the report and JSON events carry; nil where there is none yet.
    public var code: String? {
        switch self {
        case .connection(let reason): reason.code
        case .response(let reason): reason.code
        case .input(let reason): reason.code
        case .file(let reason): isOutOfSpace ? "no-space" : reason.code
        case .resume(let reason): reason.code
        case .checksum(let reason): reason.code
        case .stop: "internal"
        }
    }

    /// The reason's data, as JSON fields beside its code.
    public var fields: [(name: String, value: Int64)] {
        switch self {
        case .connection(let reason): reason.fields
        case .response(let reason): reason.fields
        default: []
        }
    }

    /// The reason in words, without the item it happened to ("HTTP 404 Not Found").
    public var words: String {
        switch self {
        case .connection(let reason): reason.words
        case .response(let reason): reason.words
        case .input(let reason): reason.words
        case .file(let reason): reason.words
        case .resume(let reason): reason.words
        case .checksum(let reason): reason.words
        case .stop(let reason): reason.words
        }
    }

    /// The errno behind a local file failure.
    public var systemErrorCode: Int32? {
        switch self {
        case .file(let reason): reason.systemErrorCode
        default: nil
        }
    }

    /// The file system (or the user's quota) has no room left.
    public var isOutOfSpace: Bool {
        systemErrorCode == ENOSPC || systemErrorCode == EDQUOT
    }

    /// A failure of the host rather than of the item: the next item of the same host would
    /// meet it too.
    public var isHostDown: Bool {
        if case .connection(let reason) = self { reason.isHostDown } else { false }
    }

    /// How the host failed, in a few words, for the give-up notice and the summary.
    public var hostFailureWords: String {
        if case .connection(let reason) = self { reason.hostFailureWords } else { "failed" }
    }
}
