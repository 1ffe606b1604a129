import Glibc
import AFGetRequest
import AFGetSupport
import CCurl
import CurlCore

/// The curl thread's work: one multi handle, the table of task contexts, and the
/// poll → perform → info_read loop. Everything here runs on that one thread.
final class CurlLoop {
    private let multi = MultiHandle()
    private let inbox: CommandInbox
    private let cancellation: Cancellation
    private var tasks: [TaskID: TransferContext] = [:]
    private let sockets = ConnectionSockets()
    private let spareHandles = SpareHandles()
    /// The work running on this thread (a batch's driver), its tasks' events of the current
    /// turn, its timers, and work waiting for it to end.
    private var work: (any CurlThreadWork)?
    private let workEvents = WorkEvents()
    var timers = WorkTimers()
    private var worksWaiting: [HostedWork] = []
    /// Brings the loop out of its wait, from any thread.
    let wake: @Sendable () -> Void
    /// `--limit-total-rate`: every transfer's received bytes, paced together.
    private let runRate: RunRate?
    /// Where in the task table housekeeping starts letting held transfers go.
    private var releaseTurn = 0
    /// Origins that closed a connection offering only HTTP/1.1 before answering: they speak
    /// HTTP/2 alone (nghttpd), so a connection of a transfer's own is an HTTP/2 one there.
    private var originsWithoutHTTP1: Set<String> = []
    /// Until when (monotonic seconds) the tasks of an origin wait at their gates (Retry-After).
    private var originHolds: [String: Double] = [:]
    /// Origins given up by the batch, and the failure their tasks end with instead of starting.
    private var originsGivenUp: [String: TransferFailure] = [:]
    /// Per gate: tasks holding a place, and those waiting for one.
    private var gates: [ObjectIdentifier: GateQueue] = [:]
    private var stopping = false
    /// Origins that answered a request in this run: a refused connection there is a server
    /// restarting, worth retrying; on first contact it is a wrong port or a server not running.
    private var originsThatAnswered: Set<String> = []
    private var lastHousekeeping = 0.0
    private var lastProgressReport = 0.0

    /// SIGCONTs counted when the loop last looked, and a gap between its passes not explained
    /// yet (see `gapMeaningStopped`): its length, and when it was noticed.
    private var continuesSeen = 0
    private var unexplainedGap: (seconds: Double, noticedAt: Double)?

    private static let housekeepingInterval = 0.1
    /// The loop comes round at least every 0.1 s (its poll's longest wait). A gap this long
    /// means it was held up: the process was stopped (Ctrl-Z, SIGSTOP) and continued, or a
    /// write took that long (a slow disk, a full pipe). The monotonic clock counts stopped
    /// time, so after `fg` every transfer would look stalled; a gap is therefore discounted
    /// from the stall clocks when a SIGCONT was counted, and only then, so that a slow disk does
    /// not hide a server that stopped sending.
    private static let gapMeaningStopped = 1.0
    /// How long a gap waits for its SIGCONT to be counted (the handler may run on another
    /// thread, a moment after this one resumed); meanwhile stalls are judged as of before it.
    private static let gapSettlingTime = 0.5
    private static let progressInterval = 0.25

    init(
        inbox: CommandInbox, cancellation: Cancellation, idleConnectionsKept: Int?, connectionsPerHost: Int?,
        runRate: RunRate?
    ) {
        self.runRate = runRate
        self.inbox = inbox
        self.cancellation = cancellation
        wake = { [inbox] in inbox.post(.wake) }
        lastHousekeeping = monotonicSeconds()
        ContinueSignals.startCounting()
        continuesSeen = ContinueSignals.count
        if let idleConnectionsKept { multi.set(CURLMOPT_MAXCONNECTS, idleConnectionsKept) }
        if let connectionsPerHost { multi.set(CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost) }
    }

    func run() {
        inbox.attach(multi.wakeup)
        while !stopping {
            for command in inbox.takeAll() {
                handle(command)
            }
            if stopping { break }
            multi.perform()
            for (easy, result) in multi.completedTransfers() {
                finish(easy: easy, result: result)
            }
            housekeeping()
            admitWaiting()
            passWork()
            multi.poll(timeoutMilliseconds: pollTimeout())
        }
        for context in tasks.values {
            cancel(context, because: cancellation.reason)
        }
        // Work is over before its manager is invalidated; were it not, its last pass sees
        // every task end and every timer fire.
        if work != nil {
            timers.fireDue(now: .infinity, stoppedBy: cancellation.reason)
            _ = work?.pass(workEvents.takeAll())
            work = nil
        }
        for command in inbox.close() {
            command.refuse()
        }
        worksWaiting.forEach { $0.refuse() }
    }

    // MARK: Work on this thread

    /// The work's due timers, then its pass; once it is over, the next work waiting begins.
    private func passWork() {
        let stop = cancellation.isRequested ? cancellation.reason : nil
        timers.fireDue(now: monotonicSeconds(), stoppedBy: stop)
        guard let current = work else { return }
        guard !current.pass(workEvents.takeAll()) else { return }
        work = nil
        timers.removeAll()
        if !worksWaiting.isEmpty { begin(worksWaiting.removeFirst()) }
    }

    /// Makes `hosted` the work of this thread, and gives it its first pass.
    private func begin(_ hosted: HostedWork) {
        work = hosted.start(on: CurlThread(loop: self))
        passWork()
    }

    /// How long the loop may wait for sockets: not at all while the work has events to take,
    /// and no longer than its next timer.
    private func pollTimeout() -> Int32 {
        if work != nil && !workEvents.isEmpty { return 0 }
        guard let due = timers.nextDue else { return 100 }
        let milliseconds = ((due - monotonicSeconds()) * 1000).rounded(.up)
        return Int32(max(0, min(100, milliseconds)))
    }

    /// A task of the work's, whose events go to its pass.
    func createWorkTask(with request: HTTPRequest, body: any ResponseBodyHandler, options: TransferOptions) -> TaskID {
        let id = inbox.makeID()
        create(id, request, body, options, .work(workEvents))
        return id
    }

    private func create(
        _ id: TaskID, _ request: HTTPRequest, _ body: any ResponseBodyHandler, _ options: TransferOptions,
        _ events: TaskEvents
    ) {
        tasks[id] = TransferContext(
            id: id, request: request, body: body, options: options, events: events,
            cancellation: cancellation, sockets: sockets, runRate: runRate, spareHandles: spareHandles)
    }

    // MARK: Commands

    func handle(_ command: TaskCommand) {
        switch command {
        case .create(let id, let request, let body, let options, let channel):
            create(id, request, body, options, .own(channel))
        case .resume(let id):
            guard let context = tasks[id], context.machine.state == .suspended else { return }
            if context.isAttached {
                let unpaused = context.easy.pause(false)
                transition(context, to: .running)
                context.emit(.resumed(id))
                endIfUnpauseEnded(context, unpaused)
            } else {
                transition(context, to: .running)
                startOrWait(context)
            }
        case .suspend(let id):
            guard let context = tasks[id], context.machine.state == .running else { return }
            _ = context.easy.pause(true)
            transition(context, to: .suspended)
            context.emit(.suspended(id))
        case .cancel(let id):
            if let context = tasks[id] { cancel(context, because: nil) }
        case .giveUp(let origin, let failure):
            originsGivenUp[origin] = failure
            for context in Array(tasks.values) where context.options.origin == origin && !context.hasReachedServer {
                fail(context, failure)
            }
        case .stop(let reason):
            for context in Array(tasks.values) { cancel(context, because: reason) }
        case .host(let hosted):
            if work == nil { begin(hosted) } else { worksWaiting.append(hosted) }
        case .wake:
            break
        case .shutdown:
            stopping = true
        }
    }

    private func start(_ context: TransferContext) {
        context.needsHTTP2 = originsWithoutHTTP1.contains(context.request.url.origin)
        do {
            try context.prepareAttempt()
        } catch {
            fail(context, error)
            return
        }
        let status = multi.add(context.easy)
        guard status == CURLM_OK else {
            fail(context, TransferFailure(.stop(.cannotAddTransfer(said: String(cString: curl_multi_strerror(status))))))
            return
        }
        context.isAttached = true
    }

    /// Ends a task unfinished: for the run's stop `reason`, or (nil) because its owner asked.
    private func cancel(_ context: TransferContext, because reason: StopReason?) {
        guard context.machine.state != .completed else { return }
        transition(context, to: .canceling)
        detach(context)
        leaveGate(context)
        _ = context.consumer?.flush()
        transition(context, to: .completed)
        tasks[context.id] = nil
        context.emit(.canceled(context.id, reason, context.currentProgress))
    }

    // MARK: Gates (-j)

    /// A class, so that a place taken or given back changes it where it is in `gates` (a
    /// struct's change there went through the dictionary's modify accessor, allocating each time).
    private final class GateQueue {
        let limit: Int
        var holding = 0
        /// Lowest `gateOrder` first.
        var waiting: [(order: Int, id: TaskID)] = []

        init(limit: Int) {
            self.limit = limit
        }

        func wait(_ context: TransferContext) {
            let order = context.options.gateOrder
            let index = waiting.firstIndex { $0.order > order } ?? waiting.endIndex
            waiting.insert((order, context.id), at: index)
        }
    }

    /// Starts a task now, or queues it among those already waiting when its gate's places are
    /// taken.
    private func startOrWait(_ context: TransferContext) {
        if let origin = context.options.origin, let failure = originsGivenUp[origin] { return fail(context, failure) }
        guard let gate = context.options.gate else { return start(context) }
        let key = ObjectIdentifier(gate)
        let queue: GateQueue
        if let known = gates[key] {
            queue = known
        } else {
            queue = GateQueue(limit: gate.limit)
            gates[key] = queue
        }
        if queue.holding < queue.limit && queue.waiting.isEmpty && !isHeld(context, at: monotonicSeconds()) {
            takePlace(context, at: key)
        } else {
            queue.wait(context)
        }
    }

    /// Starts a task in one of its gate's places; a start that fails at once gives it back.
    private func takePlace(_ context: TransferContext, at key: ObjectIdentifier) {
        gates[key]?.holding += 1
        context.holdsGatePlace = true
        start(context)
    }

    /// Gives back an ending task's place; `admitWaiting` hands it on.
    private func leaveGate(_ context: TransferContext) {
        guard context.holdsGatePlace, let gate = context.options.gate else { return }
        context.holdsGatePlace = false
        gates[ObjectIdentifier(gate)]?.holding -= 1
    }

    /// Starts waiting tasks in the places given back since the last call; a task canceled
    /// (or failed, its origin given up) while it waited is passed over, one whose origin is
    /// held is passed by.
    private func admitWaiting() {
        let now = monotonicSeconds()
        if !originHolds.isEmpty { originHolds = originHolds.filter { $0.value > now } }
        for key in Array(gates.keys) {
            while let queue = gates[key], queue.holding < queue.limit,
                let index = queue.waiting.firstIndex(where: { tasks[$0.id].map { !isHeld($0, at: now) } ?? true })
            {
                let next = queue.waiting[index].id
                gates[key]?.waiting.remove(at: index)
                guard let context = tasks[next], context.machine.state == .running, !context.isAttached else { continue }
                takePlace(context, at: key)
            }
            if let queue = gates[key], queue.holding == 0, queue.waiting.isEmpty { gates[key] = nil }
        }
    }

    /// A 429 or 503 with Retry-After holds the tasks of its origin still waiting at a gate
    /// (`TransferOptions.origin`) until then, while others pass them. Decided here, as the
    /// answer arrives, because the place it gives back is handed on in this same pass, before
    /// the download driver hears of the answer (which then holds the items it has not started).
    private func holdOriginIfAsked(_ context: TransferContext) {
        guard let origin = context.options.origin, context.head.status == 429 || context.head.status == 503,
            let value = context.head.serverWait, let seconds = RetryAfter.seconds(value, now: Int64(time(nil)))
        else { return }
        let until = monotonicSeconds() + min(seconds, RetryAfter.longestWait)
        originHolds[origin] = max(originHolds[origin] ?? until, until)
    }

    private func isHeld(_ context: TransferContext, at now: Double) -> Bool {
        guard !originHolds.isEmpty, let origin = context.options.origin, let until = originHolds[origin] else {
            return false
        }
        return until > now
    }

    // MARK: Completion

    private func finish(easy: UnsafeMutableRawPointer, result: CURLcode) {
        guard let pointer = EasyHandle.privatePointer(of: easy) else { return }
        finish(Unmanaged<TransferContext>.fromOpaque(pointer).takeUnretainedValue(), result: result)
    }

    /// Ends a transfer whose unpause (`curl_easy_pause`) returned `result`; CURLE_OK: it goes on.
    ///
    /// Unpausing hands the bytes libcurl held back to the write callback from within that call.
    /// When the callback ends the transfer there (a segment's end, a limit, the run's stop),
    /// libcurl (7.88) returns the write error from the call and leaves the handle in the multi
    /// handle as it was, without the run-now timer and the forced read an unpause otherwise
    /// sets: curl_multi_info_read reports the end only once a later read calls the callback
    /// again. Over HTTP and FTP the socket's next bytes come soon; over SFTP and SCP libssh2 has
    /// already read what follows into its own buffers, so the socket stays quiet and a segment
    /// waited for the stall timeout. It ends here instead, as libcurl's report of it would.
    private func endIfUnpauseEnded(_ context: TransferContext, _ result: CURLcode) {
        guard result != CURLE_OK, context.isAttached else { return }
        finish(context, result: result)
    }

    private func finish(_ context: TransferContext, result: CURLcode) {
        detach(context)
        if context.headersComplete {
            originsThatAnswered.insert(context.request.url.origin)
            holdOriginIfAsked(context)
        }
        if result == CURLE_OK { context.remoteTransferEnded() }
        // Received data reaches the file whatever the outcome: a failed transfer keeps its bytes.
        var ending = TransferEnding()
        ending.flushFailure = context.consumer?.flush()
        ending.wasStopped = context.wasStopped
        ending.consumerHasEnough = context.consumerHasEnough
        ending.abortReason = context.abortReason
        ending.refusedHTTP1 = refusedHTTP1(context, result)
        if result != CURLE_OK { ending.curlFailure = failure(of: context, result) }
        if context.head.redirectLocation != nil { ending.redirectTarget = context.easy.info(string: CURLINFO_REDIRECT_URL) }
        ending.bodyEnd = { context.bodyEndFailure() }
        switch ending.outcome {
        case .canceled:
            cancel(context, because: cancellation.reason)  // ended by its callbacks as the run stopped
        case .completed:
            complete(context)
        case .failed(let failure):
            fail(context, failure)
        case .resendOverHTTP2:
            originsWithoutHTTP1.insert(context.request.url.origin)
            start(context)
        case .redirect(let target):
            followRedirect(context, to: target)
        }
    }

    /// libcurl's failure `result` in afget's words: past the item's `--max-time`, a refused
    /// first contact, or as `CurlFailureClassifier` words it.
    private func failure(of context: TransferContext, _ result: CURLcode) -> TransferFailure {
        if result == CURLE_OPERATION_TIMEDOUT, let deadline = context.options.deadline, monotonicSeconds() >= deadline - 0.01 {
            return context.options.maxTimeFailure
        }
        if let failure = context.remoteFailure(result) { return failure }
        let error = CurlError(code: result, detail: context.easy.lastErrorDetail)
        let failure = CurlFailureClassifier.failure(
            for: error, host: context.request.url.host,
            readingHeaders: !context.headersComplete, hostAnswered: originsThatAnswered.contains(context.request.url.origin),
            limits: context.options.limits,
            requestUnsent: context.easy.info(offset: CURLINFO_PRETRANSFER_TIME_T) == 0,
            proxies: context.options.proxy, proxy: context.options.proxy.proxy(forRequestTo: context.request.url),
            tunnelStatus: context.easy.info(CURLINFO_HTTP_CONNECTCODE),
            ftpReply: ["ftp", "ftps"].contains(context.request.url.scheme) ? context.easy.info(CURLINFO_RESPONSE_CODE) : 0,
            body: context.progress.expected.map { (context.progress.received, $0) })
        return refusedOnFirstContact(context, result) ? failure.noting(.refusedOnFirstContact, transient: false) : failure
    }

    /// A connection of the transfer's own that offered only HTTP/1.1 over TLS ended before a
    /// byte of a response: an empty reply (nghttpd), or HTTP/2's frames where a status line
    /// belongs. Such a server speaks HTTP/2 alone; one connection (without `-s`) worked.
    private func refusedHTTP1(_ context: TransferContext, _ result: CURLcode) -> Bool {
        guard context.options.connectionOfItsOwn, !context.needsHTTP2, context.request.url.scheme == "https",
            context.headerBytes == 0
        else { return false }
        let error = CurlError(code: result, detail: context.easy.lastErrorDetail)
        return result == CURLE_GOT_NOTHING || result == CURLE_RECV_ERROR
            || (result == CURLE_UNSUPPORTED_PROTOCOL && error.message.contains("HTTP/0.9"))
    }

    /// A connection refused by an origin that has not answered in this run, which is not
    /// retried unless the user asked (`--retry-refused`): curl fails at once, and retrying a
    /// wrong port for half a minute helps no one.
    private func refusedOnFirstContact(_ context: TransferContext, _ result: CURLcode) -> Bool {
        result == CURLE_COULDNT_CONNECT && context.easy.info(CURLINFO_OS_ERRNO) == Int(ECONNREFUSED)
            && !context.options.retriesRefusedConnections && !originsThatAnswered.contains(context.request.url.origin)
    }

    private func followRedirect(_ context: TransferContext, to target: String) {
        let decision = context.options.redirects.next(
            after: context.request, status: context.head.status, target: target,
            redirectsSoFar: context.redirectsSoFar)
        switch decision {
        case .follow(let next):
            context.emit(.redirected(context.id, from: context.request.url.absoluteString, to: next.url.absoluteString))
            context.request = next
            context.redirectsSoFar += 1
            start(context)
        case .deliver:
            complete(context)
        case .refuse(let failure):
            fail(context, failure)
        }
    }

    private func complete(_ context: TransferContext) {
        leaveGate(context)
        context.saveCookies()
        transition(context, to: .completed)
        tasks[context.id] = nil
        context.emit(.completed(context.id, context.response()))
    }

    private func fail(_ context: TransferContext, _ failure: TransferFailure) {
        detach(context)
        leaveGate(context)
        context.saveCookies()
        if context.machine.state == .suspended {
            transition(context, to: .canceling)
        }
        transition(context, to: .completed)
        tasks[context.id] = nil
        context.emit(.failed(context.id, failure, context.currentProgress))
    }

    private func detach(_ context: TransferContext) {
        if context.isAttached {
            multi.remove(context.easy)
            context.isAttached = false
        }
    }

    private func transition(_ context: TransferContext, to state: TaskState) {
        do {
            try context.machine.transition(to: state)
        } catch {
            // Only reachable through a bug in this loop; the checked transition makes it loud.
            preconditionFailure("\(context.id): \(error)")
        }
    }

    // MARK: Housekeeping: stalls and progress reports

    /// Discounts from the stall clocks a gap between passes that a SIGCONT explains, and says
    /// at what time stalls are to be judged: now, or while the latest gap waits for its
    /// explanation, as of just before it (a stop's time is then blamed on no transfer, and a
    /// run of slow passes, a slow disk's, still finds a server that stopped sending).
    /// `continues`: the SIGCONT count read before the clock, so a continue that came after
    /// the clock was read is seen at the next pass, not taken for one already seen.
    private func settleGaps(sinceLast: Double, at now: Double, continues: Int) -> Double {
        defer { continuesSeen = continues }
        if sinceLast >= Self.gapMeaningStopped { unexplainedGap = (sinceLast, now) }
        guard let gap = unexplainedGap else { return now }
        if continues != continuesSeen {
            for context in tasks.values { context.discountTimeAway(gap.seconds, at: now) }
            runRate?.skip(gap.seconds)
            unexplainedGap = nil
        } else if now - gap.noticedAt >= Self.gapSettlingTime {
            unexplainedGap = nil  // a pause of afget's own: the clocks keep what they counted
        }
        return unexplainedGap.map { now - $0.seconds } ?? now
    }

    private func housekeeping() {
        let continues = ContinueSignals.count
        let now = monotonicSeconds()
        let sinceLast = now - lastHousekeeping
        guard sinceLast >= Self.housekeepingInterval else { return }
        lastHousekeeping = now
        let stallsJudgedAt = settleGaps(sinceLast: sinceLast, at: now, continues: continues)
        let reportProgress = now - lastProgressReport >= Self.progressInterval
        if reportProgress { lastProgressReport = now }

        // Held transfers are let go in turn, so that under --limit-total-rate the first in the
        // table does not take the whole allowance every time.
        var running = Array(tasks.values)
        if !running.isEmpty {
            releaseTurn = (releaseTurn + 1) % running.count
            running = Array(running[releaseTurn...] + running[..<releaseTurn])
        }
        for context in running where context.machine.state == .running && context.isAttached {
            context.tellConnectWait(at: now)
            let unpaused = context.releaseIfAllowed(now: now)
            if unpaused != CURLE_OK {
                endIfUnpauseEnded(context, unpaused)
            } else if let failure = context.consumer?.flush() {
                fail(context, failure)
            } else if let stall = context.stallFailure(at: now, judgedAt: stallsJudgedAt) {
                fail(context, stall)
            } else if reportProgress && (context.isFinalResponse || context.progress.sent > 0) {
                context.emit(.progress(context.id, context.currentProgress))
            }
        }
    }
}
