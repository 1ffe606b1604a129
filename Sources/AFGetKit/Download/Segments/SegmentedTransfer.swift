import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import CPlatform

/// One file downloaded over several connections at once (`-s`): each segment is fetched in
/// bounded ranges (`bytes=a-b`, see `nextRequestLength`), every one checked like a
/// continue (Content-Range, length, ETag; If-Range on the request) before a byte is written,
/// and written in place with positioned writes into the one part file. A connection that
/// finishes takes half of what the largest segment has not yet asked for, so all stay busy to
/// the end and no byte is asked for twice. Failures are retried per segment, each through its
/// own retry loop; a server that answers a range with anything but the range ends the
/// segmenting, and the job goes on with one connection.
///
/// A file with several sources (`MirrorSources`) has its connections opened on them in turn,
/// each answer checked against the file its first source fixed; a source that fails, or serves
/// another file, while another is left is dropped (said once) and its segment goes on from
/// another at once.
///
/// A file with piece hashes (Metalink) has each piece checked once all its bytes are in and no
/// connection writes it any more; a bad piece is fetched again from a source that did not write
/// it (one that alone wrote it is dropped), as a segment of its own.
///
/// It runs no task and awaits nothing: its job's driver hands it its tasks' events and the ends
/// of its segments' retry waits, and each call answers with a `Step` — the tasks it posted and
/// the waits it asks for, or how the transfer ended.
final class SegmentedTransfer {
    /// What the job lends: the transfer machinery, the item, and how checkpoints are written.
    struct Context {
        let environment: DownloadEnvironment
        let info: ItemInfo
        let request: HTTPRequest
        let part: PartFile
        let validators: EntityValidators
        let total: Int64
        /// Where the segments' tasks are made (their events go to the job's driver).
        let tasks: any TaskPosting
        /// The file's sources, as the job knew them.
        let sources: MirrorSources
        /// fdatasync, then resume data recording these segments and who wrote what.
        let checkpoint: ([Segment], SourceRanges) -> TransferFailure?
        /// The file's pieces and which are checked, as the job knew them.
        let pieces: PieceCheck?
    }

    enum Result {
        case completed(TaskResponse)
        /// Segments cannot go on (a 200 to a range, an inconsistent 206): continue with one
        /// connection from the bytes held without a gap.
        case fellBack(contiguous: Int64, reason: String)
        case failed(TransferFailure)
        /// The run stopped; every segment is checkpointed.
        case stopped
    }

    /// What the segments ask of their driver after each call.
    enum Step {
        /// Still running: the tasks posted since the last step (their events come to `handle`)
        /// and the segments' waits before a retry (each ends in `retryDue`).
        case running(posted: [TaskID], waits: [RetryWait])
        case ended(Result)
    }

    /// A segment's wait before its next attempt.
    struct RetryWait: Equatable {
        /// The segment, by its start.
        let segment: Int64
        let seconds: Double
    }

    private let context: Context
    private var segments: [Segment]
    /// A segment being downloaded by a task: the segment (known by its start, which never
    /// changes), where the task began writing, and where it is now.
    private struct RunningSegment {
        let segment: Int64
        let from: Int64
        let live: LiveSegment
        /// Which of `sources` it asked.
        let source: Int
        /// The server answered with the range: this connection is one it takes.
        var isServed = false
    }

    /// The file's sources: what each served, and those dropped. The job takes them back at the end.
    private(set) var sources: MirrorSources
    /// The file's pieces checked so far. The job takes them back at the end.
    private(set) var pieces: PieceCheck?
    /// Segments fetching a bad piece again, by their start: the sources that wrote it, which
    /// they do not ask.
    private var avoiding: [Int64: Set<Int>]

    private var running: [TaskID: RunningSegment] = [:]
    /// Each segment's retries, by its start.
    private var retries: [Int64: RetryLoop] = [:]
    private var waitingToRetry: Set<Int64> = []
    /// What the next step tells the driver.
    private var posted: [TaskID] = []
    private var waits: [RetryWait] = []
    private var lastResponse: TaskResponse?
    private var lastCheckpointAt = monotonicSeconds()
    private var speed = SpeedEstimator()
    private var lastProgressAt = -Double.infinity
    /// The curl thread reports every segment's progress in one round, a few times a second: the
    /// item's progress is told once a round (reports further apart than this are a new round).
    private static let progressRound = 0.1
    private var stopping: Result?
    private var hasEnded = false

    private var tasks: any TaskPosting { context.tasks }
    private var renderer: SharedRenderer { context.environment.renderer }
    private var settings: DownloadSettings { context.environment.settings }
    private var cancellation: Cancellation { context.environment.cancellation }

    /// Connections at once: `-s`, or fewer once the server has refused more.
    private var connectionLimit: Int
    /// A connection was refused (503, 429, an FTP 421) beside served ones: how many the server
    /// takes is judged once every running request has its answer, and no connection starts meanwhile.
    private var refusalToJudge = false
    /// The most connections the server has served at once so far.
    private var mostServedAtOnce = 0
    /// Segments whose FTP login was turned away while no more sessions were open than the
    /// server had served at once, by their start: the pauses each has made in a row.
    private var recountPauses: [Int64: Int] = [:]
    /// Segments pausing so now: each keeps its session's place, which no other segment takes.
    private var pausedForRecount: Set<Int64> = []
    /// How long a segment turned away that way pauses, and how many times in a row, before the
    /// refusal counts as the server's limit.
    private static let recountPause = 0.2
    private static let recountPausesAtMost = 5

    /// `first`: the first range's task, already running, which goes on as a segment.
    /// `avoiding`: segments that fetch bad pieces again, with the sources that wrote them.
    init(
        _ context: Context, segments: [Segment], adopting first: DownloadJob.Handover? = nil,
        avoiding: [Int64: Set<Int>] = [:]
    ) {
        self.context = context
        self.segments = segments
        self.avoiding = avoiding
        connectionLimit = context.environment.settings.split
        sources = context.sources
        pieces = context.pieces
        if let first {
            running[first.task] = RunningSegment(
                segment: first.from, from: first.from, live: first.live, source: first.source, isServed: true)
            mostServedAtOnce = 1
            sources.took(first.source)
        }
    }

    /// How much a segment asks for next: half of what it has left (at least two minimum
    /// segments, at most 16 MiB), so that what it has not asked for yet can be handed to a
    /// connection that is free, a request is never cut short, and few requests are made.
    private func nextRequestLength(_ segment: Segment) -> Int64 {
        let minimum = 2 * max(1, settings.minimumSplitSize)
        return min(max(minimum, 16 << 20), max(minimum, segment.remaining / 2))
    }

    /// The bytes the segments hold, those of earlier runs included.
    var bytesDone: Int64 { segments.bytesDone }

    /// The file's length.
    var total: Int64 { context.total }

    private func index(of start: Int64) -> Int {
        segments.firstIndex { $0.start == start }!
    }

    /// Claims the file's room and opens the connections.
    func begin() -> Step {
        do {
            try context.part.reserveSpace(upTo: context.total)
        } catch {
            // The first range's task is still writing into the part file: it ends before the
            // job may close the descriptor.
            stop(.failed(error))
            return nextStep()
        }
        fillConnections()
        speed.add(bytes: segments.bytesDone, at: monotonicSeconds())
        // The first checkpoint while the connections open, rather than before.
        if let failure = checkpoint() { stop(.failed(failure)) }
        return nextStep()
    }

    /// An event of one of the segments' tasks.
    func handle(_ event: TaskEvent) -> Step {
        guard !hasEnded else { return .running(posted: [], waits: []) }
        take(event)
        return nextStep()
    }

    /// A segment's wait before its next attempt ended (`reason`: the run stopped during it).
    func retryDue(_ segment: Int64, stoppedBy reason: StopReason?) -> Step {
        guard !hasEnded, waitingToRetry.remove(segment) != nil else { return .running(posted: [], waits: []) }
        pausedForRecount.remove(segment)
        if reason != nil { stop(.stopped) }
        return nextStep()
    }

    /// What follows a call: more connections while the transfer goes on, or its end once no
    /// task runs and no segment waits.
    private func nextStep() -> Step {
        fillConnections()
        guard running.isEmpty && waitingToRetry.isEmpty else {
            defer { posted = []; waits = [] }
            return .running(posted: posted, waits: waits)
        }
        hasEnded = true
        return .ended(finish())
    }

    /// Opens a connection for segment `index`; false when no source may serve it (every
    /// source that did not write its bad piece is dropped).
    private func start(_ index: Int) -> Bool {
        let segment = segments[index]
        guard let source = sources.nextForConnection(avoiding: avoiding[segment.start] ?? []) else { return false }
        let requestEnd = min(segment.end, segment.position + nextRequestLength(segment))
        let live = LiveSegment(from: segment.position, end: requestEnd)
        let expected = sources.expected(of: source, entity: context.validators)
        let request = sources.sources[source].request.ranged(
            from: segment.position, to: requestEnd, ifRange: expected.ifRange)
        let expectation = ResumeExpectation(
            offset: segment.position, end: requestEnd, expectedTotal: context.total,
            recorded: expected, restartsOnFullResponse: false, fixedBy: sources.fixedBy(comparing: source))
        let target = FileDescriptorSink(descriptor: context.part.descriptor, name: context.part.path)
        let task = tasks.downloadTask(
            with: request, to: target, resume: expectation, segment: live,
            options: settings.transfer, disk: context.environment.disk, buffers: context.environment.buffers)
        running[task] = RunningSegment(segment: segment.start, from: segment.position, live: live, source: source)
        posted.append(task)
        tasks.resume(task)
        return true
    }

    private func fillConnections() {
        judgeRefusal()
        while stopping == nil, !cancellation.isRequested, !refusalToJudge,
            running.count + pausedForRecount.count < connectionLimit,
            sources.activeCount > 0
        {
            let busy = Set(running.values.map(\.segment)).union(waitingToRetry)
            if let idle = segments.indices.first(where: { !segments[$0].isComplete && !busy.contains(segments[$0].start) }) {
                if !start(idle) { stop(.failed(noSourceForPiece(at: segments[idle].start))) }
                continue
            }
            // Every unfinished segment has a connection: halve the largest part not yet
            // asked for (past each running request's end), so no request is cut short.
            let candidates = running.values.map { (index: index(of: $0.segment), reached: $0.live.end) }
            guard
                let (index, at) = SegmentPlan.split(segments, running: candidates, minimumSize: settings.minimumSplitSize)
            else { return }
            let newSegment = Segment(start: at, end: segments[index].end)
            avoiding[at] = avoiding[segments[index].start]
            segments[index].end = at
            segments.insert(newSegment, at: index + 1)
            _ = start(index + 1)
        }
    }

    private func take(_ event: TaskEvent) {
        let id = event.taskID
        guard let task = running[id] else { return }
        switch event {
        case .progress(_, let progress):
            record(task, written: progress.written)
            reportProgress()
            if monotonicSeconds() - lastCheckpointAt >= 1, let failure = checkpoint() {
                stop(.failed(failure))
            }
        case .completed(_, let response):
            running[id] = nil
            record(task, written: response.progress.written)
            let head = response.head
            if head.isSuccess {
                lastResponse = response
                sources.served(task.source, bytes: response.progress.written)
            }
            if !head.isSuccess && sources.isDropped(task.source) {
                // Another answer of a source already dropped: its segment goes to another.
            } else if [503, 429].contains(head.status) && running.values.contains(where: \.isServed) {
                refusalToJudge = true
            } else if !head.isSuccess {
                segmentFailed(task, response: head, failure: nil)
            } else if !segments[index(of: task.segment)].isComplete && task.live.reached < task.live.end {
                let early = TransferFailure(.response(.rangeShort), transient: true)
                segmentFailed(task, response: nil, failure: early)
            }
            checkPieces(near: task.from..<task.live.end)
        case .failed(_, let failure, let progress):
            running[id] = nil
            record(task, written: progress.written)
            sources.served(task.source, bytes: progress.written)
            if sources.isDropped(task.source) {
                // Another request of a source already dropped: its segment goes to another.
            } else if failure.reason == .connection(.turnedAway) {
                turnedAway(task, failure)
            } else if sources.activeCount > 1 && MirrorSources.isSourceFailure(failure) {
                dropSource(task.source, because: failure.message)
            } else if failure.kind == .resumeConflict {
                // Another version of the file: every segment stops and the job starts over.
                // A server that mishandles ranges: one connection goes on.
                stop(failure.entityChanged ? .failed(failure) : .fellBack(contiguous: 0, reason: failure.message))
            } else {
                segmentFailed(task, response: nil, failure: failure)
            }
            checkPieces(near: task.from..<task.live.end)
        case .canceled(_, let reason, let progress):
            running[id] = nil
            record(task, written: progress.written)
            sources.served(task.source, bytes: progress.written)
            if stopping == nil {
                stop(reason != nil || cancellation.isRequested ? .stopped : .failed(TransferFailure(.stop(.canceled))))
            }
        case .started(_, let head):
            running[id]?.isServed = head.status == 206
            if head.status == 206 {
                sources.answered(task.source, validators: EntityValidators(of: head))
                mostServedAtOnce = max(mostServedAtOnce, running.values.filter(\.isServed).count)
                recountPauses[task.segment] = nil
            }
        case .verbose, .redirected, .suspended, .resumed, .connecting, .connected:
            // A segment's connection goes to a host that answered its first range.
            if let notice = event.notice(verbose: settings.transfer.verbose) { renderer.handle(.notice(notice)) }
        }
    }

    /// A segment's progress: what its task wrote, from where it began, up to the segment's end.
    private func record(_ task: RunningSegment, written: Int64) {
        let index = index(of: task.segment)
        let segment = segments[index]
        segments[index].done = segment.position(reachedAt: task.from + written) - segment.start
        sources.wrote(task.source, task.from..<min(segment.end, task.from + written))
    }

    /// Once a round, counting each running segment where its transfer has got to: told at the
    /// round's first report, the others' bytes would otherwise show a round late, and a speed
    /// reckoned between reports microseconds apart is absurd.
    private func reportProgress() {
        let now = monotonicSeconds()
        guard now - lastProgressAt >= Self.progressRound else { return }
        lastProgressAt = now
        var bytes = segments.bytesDone
        for task in running.values {
            let segment = segments[index(of: task.segment)]
            bytes += segment.position(reachedAt: task.live.reached) - segment.position
        }
        speed.add(bytes: bytes, at: now)
        renderer.handle(.progress(context.info, bytes: bytes, total: context.total, speed: speed.bytesPerSecond))
    }

    /// A server that refuses a connection beyond those running (503 or 429, as nginx's
    /// limit_conn does) gets no more than it takes: the segment waits for a free connection
    /// instead of failing, and the limit is said once, counted when the requests running beside
    /// the refused one are all answered.
    private func judgeRefusal() {
        guard refusalToJudge, running.values.allSatisfy(\.isServed) else { return }
        refusalToJudge = false
        // The other requests of that moment were answered only later (their events come
        // on their own streams): counted once all are, the limit is the server's, not a race's.
        let allowed = running.count
        guard allowed > 0, allowed < connectionLimit else { return }
        if connectionLimit == settings.split {
            renderer.handle(
                .notice(DownloadNotices.connectionsCapped(context.info.path, at: allowed)))
        }
        connectionLimit = allowed
    }

    /// An FTP server's 421 to a login. Each FTP request logs in anew, and a server counts a
    /// session afget just closed until it has seen it go (vsftpd once its child is reaped): a
    /// login turned away while no more sessions are open than the server has served at once
    /// asks again after a short pause, neither a failure nor a limit. Otherwise, or when that
    /// goes on (another client of this address may have taken a session), a 421 beside served
    /// sessions is the server's 503, judged as one; with none served it is a failure.
    private func turnedAway(_ task: RunningSegment, _ failure: TransferFailure) {
        let pauses = recountPauses[task.segment, default: 0]
        if running.count + 1 <= mostServedAtOnce && pauses < Self.recountPausesAtMost {
            recountPauses[task.segment] = pauses + 1
            waitingToRetry.insert(task.segment)
            pausedForRecount.insert(task.segment)
            waits.append(RetryWait(segment: task.segment, seconds: Self.recountPause))
        } else if running.values.contains(where: \.isServed) {
            refusalToJudge = true
        } else {
            segmentFailed(task, response: nil, failure: failure)
        }
    }

    /// A transient failure is retried for this segment alone, after its retry loop's wait;
    /// any other ends the transfer.
    private func segmentFailed(_ task: RunningSegment, response: ResponseHead?, failure: TransferFailure?) {
        guard stopping == nil else { return }
        let segment = task.segment
        let sendsCredentials = settings.transfer.sendsCredentials
        if sources.activeCount > 1 {
            let failure = failure ?? response!.failure(sentCredentials: sendsCredentials)
            if MirrorSources.isSourceFailure(failure) {
                dropSource(task.source, because: failure.message)
                return
            }
        }
        guard let problem = RetryLoop.transientProblem(response: response, failure: failure, sentCredentials: sendsCredentials)
        else {
            stop(.failed(failure ?? response!.failure(sentCredentials: sendsCredentials)))
            return
        }
        // The wait runs beside the other segments; the driver times it.
        var loop = retries[segment] ?? context.environment.retryLoop()
        let decision = loop.decide(after: problem, item: context.info)
        retries[segment] = loop
        switch decision {
        case .wait(let seconds):
            waitingToRetry.insert(segment)
            waits.append(RetryWait(segment: segment, seconds: seconds))
        case .giveUp(.exhausted(let failure)), .giveUp(.waitTooLong(let failure)):
            stop(.failed(failure))
        case .giveUp(.stopped), .giveUp(.retry):
            stop(.stopped)
        }
    }

    /// A source failed or served another file while others are left: it is dropped, said once,
    /// and its segment is taken up by another source as connections are filled.
    private func dropSource(_ source: Int, because reason: String) {
        guard sources.drop(source, because: reason) else { return }
        renderer.handle(.sourceDropped(context.info, source: sources.sources[source].url, reason: reason))
    }

    /// Checks the pieces near `range` whose every byte is now held and that no connection
    /// writes any more (one read of each, from the page cache). A bad one is fetched again from
    /// a source that did not write it, and a source that alone wrote it is dropped; with no other
    /// source it stays as it is, for the job's check at the end to fail the item.
    private func checkPieces(near range: Range<Int64>) {
        guard var check = pieces, stopping == nil else { return }
        defer { pieces = check }
        let busy = Set(running.values.map(\.segment)).union(waitingToRetry)
        let writing = segments.filter { busy.contains($0.start) }.map { $0.start..<$0.end }
        for piece in check.due(held: segments.heldRanges, near: range) {
            let bytes = check.range(of: piece)
            guard !writing.contains(where: { $0.overlaps(bytes) }) else { continue }
            do {
                guard let mismatch = try check.check(piece, digest: context.part.digest) else { continue }
                if fetchAgain(mismatch) { check.forget(bytes) }
            } catch {
                stop(.failed(error))
                return
            }
        }
    }

    /// A piece failed its hash: false when no source but those that wrote it is left.
    private func fetchAgain(_ mismatch: PieceCheck.Mismatch) -> Bool {
        guard let blame = sources.blame(mismatch, of: context.info) else { return false }
        if let said = blame.said { renderer.handle(said) }
        segments = SegmentPlan.reopening(mismatch.range, in: segments)
        avoiding[mismatch.range.lowerBound, default: []].formUnion(blame.writers)
        return true
    }

    /// Why the segment at `start`, fetching a bad piece again, cannot: every source that did
    /// not write the piece was dropped meanwhile.
    private func noSourceForPiece(at start: Int64) -> TransferFailure {
        TransferFailure(.checksum(.pieceUnservable(from: start)))
    }

    /// Ends the transfer: every running segment is canceled and the result kept for the end.
    private func stop(_ result: Result) {
        guard stopping == nil else { return }
        stopping = result
        for id in running.keys { tasks.cancel(id) }
        // Their waits' ends are no longer awaited.
        waitingToRetry.removeAll()
        pausedForRecount.removeAll()
    }

    private func checkpoint() -> TransferFailure? {
        lastCheckpointAt = monotonicSeconds()
        return context.checkpoint(segments, sources.ranges)
    }

    private func finish() -> Result {
        if cancellation.isRequested {
            _ = checkpoint()
            return .stopped
        }
        if stopping == nil, segments.allSatisfy(\.isComplete), let lastResponse {
            return .completed(lastResponse)
        }
        let checkpointFailure = checkpoint()
        switch stopping {
        case .fellBack(_, let reason)?:
            return .fellBack(contiguous: SegmentPlan.contiguousPrefix(segments), reason: reason)
        case let result?:
            return result
        case nil:
            return .failed(checkpointFailure ?? TransferFailure(.stop(.segmentsUnfinished)))
        }
    }
}
