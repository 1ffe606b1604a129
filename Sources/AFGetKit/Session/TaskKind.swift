/// The three kinds of task, as NSURLSession has them.
public enum TaskKind: Sendable, Equatable {
    /// The response body is collected in memory (up to a limit) and handed over on completion.
    case data(bodyLimit: Int)
    /// The request body is sent from `HTTPRequest.body`; the response body is collected as for data.
    case upload(bodyLimit: Int)
    /// The response body of a successful (2xx) final response is written to a file descriptor
    /// the caller owns; bodies of redirects and errors are discarded. When continuing
    /// (`resume` set), the response must match the expectation before anything is written.
    /// With a `segment`, writing stops at its end and the task completes (a segment of the file).
    case download(to: FileDescriptorSink, resume: ResumeExpectation?, segment: LiveSegment?)
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
