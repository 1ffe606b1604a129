import Synchronization

/// The three kinds of task, as NSURLSession has them.
public enum TaskKind: Sendable, Equatable {
    /// The response body is collected in memory (up to a limit) and handed over on completion.
    case data(bodyLimit: Int)
    /// The request body is sent from `HTTPRequest.body`; the response body is collected as for data.
    case upload(bodyLimit: Int)
    /// The response body of a successful (2xx) final response is written to a file descriptor
    /// the caller owns; bodies of redirects and errors are discarded. When continuing
    /// (`resume` set), the response must match the expectation before anything is written.
    /// With an `end`, writing stops there and the task completes (a segment of the file).
    case download(to: FileDescriptorSink, resume: ResumeExpectation?, end: SegmentEnd?)
}

/// Where a segment's writing stops (exclusive), shared by the job that plans segments and the
/// curl thread that writes: the job may move it earlier while the transfer runs, to hand the
/// rest of the segment to another connection.
public final class SegmentEnd: Sendable, Equatable {
    private let offset: Atomic<Int64>

    public init(_ offset: Int64) {
        self.offset = Atomic(offset)
    }

    public var value: Int64 { offset.load(ordering: .acquiring) }

    public static func == (lhs: SegmentEnd, rhs: SegmentEnd) -> Bool { lhs === rhs }

    /// Moves the end earlier; a later end than the current one is ignored.
    public func shorten(to newEnd: Int64) {
        var current = offset.load(ordering: .acquiring)
        while newEnd < current {
            let (exchanged, original) = offset.compareExchange(expected: current, desired: newEnd, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }
}

/// A file descriptor a download writes to, owned (opened and closed) by the caller.
public struct FileDescriptorSink: Sendable, Equatable {
    public let descriptor: Int32
    /// What to call the file in messages ("cannot write NAME: ...").
    public let name: String
    /// Digests fed with every byte as it is written.
    public let digests: [RunningDigest]

    public init(descriptor: Int32, name: String, digests: [RunningDigest] = []) {
        self.descriptor = descriptor
        self.name = name
        self.digests = digests
    }

    public static func == (lhs: FileDescriptorSink, rhs: FileDescriptorSink) -> Bool {
        lhs.descriptor == rhs.descriptor && lhs.name == rhs.name && lhs.digests.elementsEqual(rhs.digests, by: ===)
    }

    public static let standardOutput = FileDescriptorSink(descriptor: 1, name: "standard output")
}
