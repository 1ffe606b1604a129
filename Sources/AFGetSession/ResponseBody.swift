import AFGetRequest
import AFGetSupport

/// How a task's owner takes the body of its final response. The session runs the transfer
/// (redirects, authentication, limits, content decoding, pacing) and never looks at what the
/// body is for; when the final response's headers arrive it asks the task's handler, on the
/// curl thread, whether to take the body and into what.
public protocol ResponseBodyHandler: Sendable {
    /// The final response's headers arrived. `announcedLength` is the length of the body as it
    /// will be handed over (nil when unknown, or when decoding changes it).
    func accept(_ head: ResponseHead, announcedLength: Int64?) -> BodyAcceptance
}

/// What becomes of a final response's body.
public enum BodyAcceptance {
    /// Taken, piece by piece, by this consumer.
    case take(any BodyConsumer)
    /// Received and dropped: an error page the caller judges by its status.
    case pass
    /// Not to be received at all: the transfer ends with this failure.
    case refuse(TransferFailure)
}

/// What a consumer says after a piece of the body.
public enum BodyIntake: Equatable {
    case more
    /// All the consumer wants, `taken` bytes of this piece included: the transfer ends as
    /// complete (a segment of a file reached its end).
    case enough(taken: Int)
    /// The consumer cannot go on (a full disk, a body over its limit): the transfer fails.
    case refuse(TransferFailure)
}

/// Where one response's body goes. Created by a `ResponseBodyHandler` on the curl thread and
/// used only there, so it needs no lock.
public protocol BodyConsumer: AnyObject {
    func take(_ piece: UnsafeRawBufferPointer) -> BodyIntake
    /// Bytes handed on for good (in the file); the rest are still buffered.
    var delivered: Int64 { get }
    /// Hands on what is buffered, when the transfer ends and a few times a second meanwhile;
    /// the failure if it cannot.
    func flush() -> TransferFailure?
    /// The body, for a consumer that keeps it in memory.
    func collectedBody() -> [UInt8]
}

/// The body collected in memory, up to a limit: data and upload tasks.
public struct CollectedBody: ResponseBodyHandler {
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    public func accept(_ head: ResponseHead, announcedLength: Int64?) -> BodyAcceptance {
        .take(Collector(limit: limit))
    }

    private final class Collector: BodyConsumer {
        let limit: Int
        var body: [UInt8] = []

        init(limit: Int) {
            self.limit = limit
        }

        func take(_ piece: UnsafeRawBufferPointer) -> BodyIntake {
            guard body.count + piece.count <= limit else {
                return .refuse(TransferFailure(.response(.bodyOverLimit(limit: limit))))
            }
            body.append(contentsOf: piece)
            return .more
        }

        var delivered: Int64 { Int64(body.count) }
        func flush() -> TransferFailure? { nil }
        func collectedBody() -> [UInt8] { body }
    }
}
