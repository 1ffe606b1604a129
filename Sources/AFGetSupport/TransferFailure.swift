import Glibc

/// Why something failed, classified so it maps onto an exit status: by its reason where afget
/// knows one (`FailureReason.failureClass`), else by the class it was made with.
public struct TransferFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let kind: FailureClass
    public let message: String
    /// Worth another attempt: a dropped or refused connection, a timeout, a stall, a short body.
    public let isTransient: Bool
    /// The bytes received are worthless (a body over `--max-size`, a broken encoding): a
    /// download removes its part file and resume data instead of keeping them for a later run.
    public let discardsData: Bool
    /// The errno behind a local file failure.
    public let systemErrorCode: Int32?
    /// Not a byte of the request went out (no connection was made): sending it again cannot
    /// repeat anything, even for a POST.
    public let requestUnsent: Bool
    /// What precisely went wrong, where afget knows more than the class; a full disk is known
    /// from its errno.
    public let reason: FailureReason

    public init(
        _ kind: FailureClass, _ message: String, transient: Bool = false, discardsData: Bool = false,
        systemErrorCode: Int32? = nil, requestUnsent: Bool = false, reason: FailureReason = .unspecified
    ) {
        self.message = message
        isTransient = transient
        self.discardsData = discardsData
        self.systemErrorCode = systemErrorCode
        self.requestUnsent = requestUnsent
        let outOfSpace = systemErrorCode == ENOSPC || systemErrorCode == EDQUOT
        self.reason = reason == .unspecified && outOfSpace ? .noSpace : reason
        self.kind = self.reason.failureClass ?? kind
    }

    /// A failure whose reason says what it is, and so its class and exit status.
    public init(
        _ reason: FailureReason, _ message: String, transient: Bool = false, discardsData: Bool = false,
        requestUnsent: Bool = false
    ) {
        self.init(
            reason.failureClass ?? .internalError, message, transient: transient, discardsData: discardsData,
            requestUnsent: requestUnsent, reason: reason)
    }

    /// The same failure told in other words (more said of it, or where it leaves the data).
    public func reworded(_ message: String, transient: Bool? = nil) -> TransferFailure {
        TransferFailure(
            kind, message, transient: transient ?? isTransient, discardsData: discardsData,
            systemErrorCode: systemErrorCode, requestUnsent: requestUnsent, reason: reason)
    }

    /// The file system (or the user's quota) has no room left.
    public var isOutOfSpace: Bool { reason == .noSpace }

    /// A resume conflict because the server now has another version of the file: what the part
    /// holds is of the old one, and the download starts over (not a server that mishandles ranges).
    public var entityChanged: Bool { reason == .entityChanged }

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
