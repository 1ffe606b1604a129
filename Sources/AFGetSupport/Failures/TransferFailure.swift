import Glibc

/// A failure of one item: its reason (which decides its class, exit status, code and words),
/// what more is said of it (`notes`), and how the work goes on from it.
public struct TransferFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: FailureReason
    /// What more is said of the failure after its reason: how many attempts it took, where its
    /// data is kept, which list line or source it came from.
    public let notes: [FailureNote]
    /// Worth another attempt: a dropped or refused connection, a timeout, a stall, a short body.
    public let isTransient: Bool
    /// The bytes received are worthless (a body over `--max-size`, a broken encoding): a
    /// download removes its part file and resume data instead of keeping them for a later run.
    public let discardsData: Bool
    /// Not a byte of the request went out (no connection was made): sending it again cannot
    /// repeat anything, even for a POST.
    public let requestUnsent: Bool

    /// A failure whose reason says what it is, and so its class, exit status and words.
    public init(_ reason: FailureReason, transient: Bool = false, discardsData: Bool = false, requestUnsent: Bool = false) {
        self.init(reason, notes: [], transient: transient, discardsData: discardsData, requestUnsent: requestUnsent)
    }

    private init(_ reason: FailureReason, notes: [FailureNote], transient: Bool, discardsData: Bool, requestUnsent: Bool) {
        self.reason = reason
        self.notes = notes
        isTransient = transient
        self.discardsData = discardsData
        self.requestUnsent = requestUnsent
    }

    /// The same failure with `note` said of it too; a note may say it is no longer worth
    /// another attempt.
    public func noting(_ note: FailureNote, transient: Bool? = nil) -> TransferFailure {
        TransferFailure(
            reason, notes: notes + [note], transient: transient ?? isTransient, discardsData: discardsData,
            requestUnsent: requestUnsent)
    }

    /// The same failure, not worth another attempt (already retried where it happened).
    public var settled: TransferFailure {
        TransferFailure(reason, notes: notes, transient: false, discardsData: false, requestUnsent: false)
    }

    /// The failure in words, without the item: its reason's words with its notes around them.
    public var message: String {
        notes.reduce(reason.words) { words, note in note.around(words) }
    }

    public var kind: FailureClass { reason.failureClass }
    /// The errno behind a local file failure.
    public var systemErrorCode: Int32? { reason.systemErrorCode }
    /// The file system (or the user's quota) has no room left.
    public var isOutOfSpace: Bool { reason.isOutOfSpace }

    /// A resume conflict because the server now has another version of the file: what the part
    /// holds is of the old one, and the download starts over (not a server that mishandles ranges).
    public var entityChanged: Bool {
        if case .resume(let reason) = reason { reason.isEntityChange } else { false }
    }

    /// A write to a pipe whose reader has gone (EPIPE; SIGPIPE is ignored): for standard
    /// output, the end of the run rather than a failure to report.
    public var isClosedPipe: Bool { systemErrorCode == EPIPE }

    public var exitCode: Int32 { kind.exitCode }
    public var description: String { message }
}

/// A failure together with the item it happened to (a URL, a path, a list line):
/// what every message for people names.
public struct ItemFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let item: String
    public let failure: TransferFailure
    /// The URL the failure kept from being fetched, when `item` names something else (a list
    /// line whose option is bad): the report's and JSON's `url`.
    public let url: String?

    public init(item: String, _ failure: TransferFailure, url: String? = nil) {
        self.item = item
        self.failure = failure
        self.url = url
    }

    public var exitCode: Int32 { failure.kind.exitCode }
    public var description: String { "\(item): \(failure.message)" }
}
