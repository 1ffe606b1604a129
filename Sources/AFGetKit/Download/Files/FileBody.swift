import AFGetRequest
import AFGetSession
import AFGetSupport
import Glibc

/// A file descriptor a download writes to, owned (opened and closed) by the caller.
public struct FileDescriptorSink: Sendable, Equatable {
    public let descriptor: Int32
    /// What to call the file in messages ("cannot write NAME: ...").
    public let name: String
    /// Digests fed with every byte as it is written.
    public let digests: [RunningDigest]
    /// A stream afget was given rather than a file it made (standard output, a device, a FIFO):
    /// written in order at the descriptor's own offset, which a shell's `>` or `>>` file shares
    /// with whatever wrote there before, and never truncated or written at a position.
    public let isStream: Bool

    public init(descriptor: Int32, name: String, digests: [RunningDigest] = [], isStream: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.digests = digests
        self.isStream = isStream
    }

    /// The same descriptor, feeding `digests`.
    public func feeding(_ digests: [RunningDigest]) -> FileDescriptorSink {
        FileDescriptorSink(descriptor: descriptor, name: name, digests: digests, isStream: isStream)
    }

    public static func == (lhs: FileDescriptorSink, rhs: FileDescriptorSink) -> Bool {
        lhs.descriptor == rhs.descriptor && lhs.name == rhs.name && lhs.isStream == rhs.isStream
            && lhs.digests.elementsEqual(rhs.digests, by: ===)
    }

    public static let standardOutput = FileDescriptorSink(descriptor: 1, name: "standard output", isStream: true)
}

/// A download's body into a file: only a successful final response's body is written (those of
/// errors are dropped, for the caller to judge by the status). When continuing (`resume`), the
/// response must match the expectation before a byte is written; with a `segment`, a 206's body
/// is written up to the segment's end and the transfer completes there (a 200, the whole file,
/// is written whole).
struct FileBody: ResponseBodyHandler {
    let sink: FileDescriptorSink
    let resume: ResumeExpectation?
    let segment: LiveSegment?
    /// Flushes a large file's data ahead of its end (none: only at the end).
    let disk: DiskThread?
    /// The run's kept write buffers (none: each task allocates its own).
    var buffers: WriteBuffers?
    /// An error's body is kept (its first 64 KiB) for the caller to read: an S3 store says
    /// why in XML (`S3ErrorDocument`). Never written to the file, never counted as written.
    var keepsErrorBody = false

    func accept(_ head: ResponseHead, announcedLength: Int64?) -> BodyAcceptance {
        var offset = resume?.offset ?? 0
        if let resume {
            switch resume.verdict(for: head) {
            case .append:
                break
            case .restart:
                // A stream cannot take back what it was given: its expectation never restarts.
                guard !sink.isStream else { return .refuse(TransferFailure(.resume(.cannotStartStreamOver(sink.name)))) }
                guard ftruncate(sink.descriptor, 0) == 0 else { return .refuse(fileFailure(.truncate, sink.name, errno: errno)) }
                sink.digests.forEach { $0.reset() }
                offset = 0
            case .changed(let reason):
                return .refuse(TransferFailure(.resume(reason)))
            case .refuse(let reason):
                return .refuse(TransferFailure(.resume(reason)))
            case .ignore:
                return passing()
            }
        } else {
            if let problem = Self.problemWithWholeFile(head) {
                return .refuse(TransferFailure(.response(.notTheWholeFile(problem)), discardsData: true))
            }
            guard head.isSuccess else { return passing() }
        }
        let writer = BufferedFileWriter(
            sink: sink, offset: offset, isSegment: segment != nil, disk: disk, buffers: buffers)
        if let announcedLength { writer.expectBody(length: announcedLength) }
        return .take(Writing(writer: writer, segment: head.status == 206 ? segment : nil))
    }

    /// A 206 to a request for the whole file must hold the whole file (bytes 5-7 of 10 written
    /// as the file would be a "complete" file of the wrong bytes), and a 200 is the whole file,
    /// so one that carries Content-Range contradicts itself.
    private static func problemWithWholeFile(_ head: ResponseHead) -> ResumeFailure? {
        if head.status == 206, let problem = ResumeExpectation.wholeFile.problem(with206: head) {
            return problem
        }
        if head.status == 200, let range = head.value(of: "Content-Range") {
            return .wholeFileWithContentRange(range)
        }
        return nil
    }

    /// An error's body: dropped, or kept when the caller reads it.
    private func passing() -> BodyAcceptance {
        keepsErrorBody ? .take(ErrorBody()) : .pass
    }

    /// The first 64 KiB of an error's body; none of it counts as written.
    private final class ErrorBody: BodyConsumer {
        private var body: [UInt8] = []

        func take(_ piece: UnsafeRawBufferPointer) -> BodyIntake {
            body.append(contentsOf: piece.prefix(max(0, S3ErrorDocument.largestBody - body.count)))
            return .more
        }

        var delivered: Int64 { 0 }
        func flush() -> TransferFailure? { nil }
        func collectedBody() -> [UInt8] { body }
    }

    private final class Writing: BodyConsumer {
        let writer: BufferedFileWriter
        /// A segment's end, and where its writing has got to, shared with the job.
        let segment: LiveSegment?

        init(writer: BufferedFileWriter, segment: LiveSegment?) {
            self.writer = writer
            self.segment = segment
        }

        func take(_ piece: UnsafeRawBufferPointer) -> BodyIntake {
            guard let segment else {
                return writer.append(piece.baseAddress!, piece.count) ? .more : .refuse(writer.failure!)
            }
            // Up to the segment's end: the rest is another segment's.
            let remaining = segment.end - writer.nextOffset
            let taken = Int(max(0, min(Int64(piece.count), remaining)))
            if taken > 0 {
                guard writer.append(piece.baseAddress!, taken) else { return .refuse(writer.failure!) }
                segment.reach(writer.nextOffset)
            }
            return taken < piece.count || remaining == Int64(taken) ? .enough(taken: taken) : .more
        }

        var delivered: Int64 { writer.written }

        func flush() -> TransferFailure? {
            writer.flush() ? nil : writer.failure
        }

        func collectedBody() -> [UInt8] { [] }
    }
}

extension TaskManager {
    /// A task that writes a successful response's body to `sink` from byte `resume.offset`
    /// (0 without `resume`). With `resume`, the request must carry the matching Range header;
    /// with `segment`, writing stops at its end and the task completes.
    public func downloadTask(
        with request: HTTPRequest, to sink: FileDescriptorSink, resume: ResumeExpectation? = nil,
        segment: LiveSegment? = nil, options: TransferOptions = TransferOptions()
    ) -> SessionTask {
        task(
            with: request, body: FileBody(sink: sink, resume: resume, segment: segment, disk: nil),
            options: options.forSegment(segment))
    }
}

extension TaskPosting {
    /// As above, for a task of the curl thread's work, with `disk` flushing the file's data
    /// while the body still arrives and the write buffer taken from `buffers`.
    func downloadTask(
        with request: HTTPRequest, to sink: FileDescriptorSink, resume: ResumeExpectation?,
        segment: LiveSegment?, options: TransferOptions, disk: DiskThread?, buffers: WriteBuffers?,
        keepsErrorBody: Bool = false
    ) -> TaskID {
        var body = FileBody(sink: sink, resume: resume, segment: segment, disk: disk)
        body.buffers = buffers
        body.keepsErrorBody = keepsErrorBody
        return task(with: request, body: body, options: options.forSegment(segment))
    }
}

extension TransferOptions {
    fileprivate func forSegment(_ segment: LiveSegment?) -> TransferOptions {
        var options = self
        if segment != nil {
            // Several segments share the network: each takes a smaller receive buffer, and a
            // connection of its own (HTTP/2 would carry them all on one).
            options.receiveBufferBytes = 128 << 10
            options.connectionOfItsOwn = true
        }
        return options
    }
}
