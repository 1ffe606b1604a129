/// What more is said of a failure than its reason: where it happened, how long it was tried,
/// where its data is left. Each note puts its words around the failure's words, once, here.
public indirect enum FailureNote: Sendable, Equatable {
    /// Where it happened, said before it: a list's line, a document's file ("list.txt:3: …").
    case at(String)
    /// The data stays where the failure left it.
    case dataKeptThere
    /// A part that cannot be continued, and how to start it over instead.
    case startOverWithRestart
    case startOverWithTheFirstCommand
    /// A stream's bytes already went out, and the rest cannot be asked for safely (`why`).
    case alreadyWritten(bytes: Int64, to: String, why: Uncontinuable)
    /// A whole file that could not be moved into place is kept for the next run (`NextRun`).
    case keptForTheNextRun(path: String, NextRun)
    /// A whole file without a name (a directory that refuses new ones) could not be kept.
    case couldNotBeKept(because: TransferFailure)
    /// The disk filled: what was kept, for a run once there is room.
    case keptUntilRoom(bytes: Int64, path: String)
    /// A refused connection to a server that never answered yet, which is not retried.
    case refusedOnFirstContact
    /// A request that is not sent again: its body was standard input, read once as it was sent,
    /// or the server may have acted on it (a POST).
    case notSentAgainStandardInput
    case notSentAgain(method: String)
    /// A transient failure that outlasted every attempt.
    case afterAttempts(Int)
    /// Connect timeouts to a host that has not answered in this run, tried that many times:
    /// fewer than the `more` retries other failures get (`RetryPolicy.firstContactTimeoutRetries`).
    case firstContactTimeouts(Int, more: Int)
    /// A list entry that is left out, and the URL it named.
    case notUsing(url: String)
    case notDownloading(url: String)
    /// A Metalink file's sources all failed; the failure is the last one's.
    case everySourceFailed(count: Int)
    /// A multipart upload to S3 that stopped with `parts` of its `count` in the store, its
    /// record kept (`record`, nil when there is nowhere to keep one) for the next run.
    case uploadKept(parts: Int, of: Int, record: String?)

    /// `words`, with this note said of them.
    func around(_ words: String) -> String {
        switch self {
        case .at(let place): "\(place): \(words)"
        case .dataKeptThere: "\(words); the data is kept there"
        case .startOverWithRestart: "\(words); use --restart to start over"
        case .startOverWithTheFirstCommand: "\(words); run the command that started it again with --restart to start over"
        case .alreadyWritten(let bytes, let stream, let why):
            "\(words); \(bytes) bytes already went to \(stream), and the rest cannot be asked for safely (\(why.words)), "
                + "so it is not tried again (that would write them twice)"
        case .keptForTheNextRun(let path, let next): "\(words); the data is kept in \(path); \(next.words)"
        case .couldNotBeKept(let failure):
            "\(words); it could not be kept (\(failure.message)), so the next run downloads it again"
        case .keptUntilRoom(let bytes, let path):
            "\(words); \(Formatting.bytes(bytes)) kept in \(path): run the same command again once there is room"
        case .refusedOnFirstContact:
            "\(words) (connection refused; not retried before the server has answered once: --retry-refused retries it)"
        case .notSentAgainStandardInput: "\(words) (not sent again: standard input is read once, as it is sent)"
        case .notSentAgain(let method):
            "\(words) (not sent again: the server may have acted on this \(method); --retry N repeats it)"
        case .afterAttempts(let count): "\(words) (after \(count) attempts)"
        case .firstContactTimeouts(let count, let more):
            "\(words) (after \(count) attempts: a host that has not answered in this run is not retried \(more) times; "
                + "--retry N retries it N times)"
        case .notUsing(let url): "\(words); not using \(url)"
        case .notDownloading(let url): "\(words); not downloading \(url)"
        case .everySourceFailed(let count): "every source failed (\(count) of them); the last: \(words)"
        case .uploadKept(let parts, let count, let record?):
            "\(words); \(parts) of \(count) parts are in the store and recorded in \(record): run the same command "
                + "again to continue (--restart aborts the upload)"
        case .uploadKept(let parts, let count, nil):
            "\(words); \(parts) of \(count) parts were sent, but with no HOME or XDG_STATE_HOME there is nowhere to "
                + "record them: the next run starts over"
        }
    }
}

/// What the next run does with a whole file kept after its move into place failed.
public enum NextRun: Sendable, Equatable {
    /// Nothing to check the kept file against: it is downloaded again.
    case downloadsAgainWithoutValidator
    case continues
    /// Its resume data could not be written.
    case downloadsAgainWithoutResumeData(because: TransferFailure)
    case movesIntoPlace

    var words: String {
        switch self {
        case .downloadsAgainWithoutValidator: "\(Uncontinuable.noValidator.words), so the next run downloads it again"
        case .continues: "run the same command again to continue it"
        case .downloadsAgainWithoutResumeData(let failure):
            "its resume data could not be written (\(failure.message)), so the next run downloads it again"
        case .movesIntoPlace: "run the same command again to move it into place"
        }
    }
}

/// Why a download cannot be continued from where its data reaches: nothing ties a range to the
/// same file, or a range cannot be asked for at all.
public enum Uncontinuable: Sendable, Equatable {
    /// An HTTP server that sent no ETag or Last-Modified.
    case noValidator
    /// An FTP or SFTP server that gave no modification time.
    case noModificationTime
    /// SCP fetches whole files only.
    case scpHasNoRanges
    /// A coded body: decoded bytes are no range of anything.
    case coded([String])

    public var words: String {
        switch self {
        case .noValidator: "the server sent no ETag or Last-Modified"
        case .noModificationTime: "the server gave no modification time"
        case .scpHasNoRanges: "SCP cannot fetch part of a file (sftp:// can)"
        case .coded(let codings): "its body is \(codings.joined(separator: ", "))-coded, which a range cannot continue"
        }
    }
}
