import AFGetProgress
import AFGetSession
import AFGetSupport

/// Runs the items of a batch, `-j` at a time, on the curl thread (`CurlThreadWork`): each turn
/// of the curl loop ends with the driver's pass, which hands every job the events of its tasks
/// that turn, the ends of its waits (timers of the loop) and its files' commits (from the disk
/// thread), performs each job's answer (`JobStep`) and takes the next items from its source (a
/// list, a crawl), all before the loop waits again. An item is prepared, transferred and moved into place without
/// a thread or a task of its own, or a hand-over between threads on the way; a split
/// download's segments (`-s`) and `-c`'s question about a file already there are tasks of its
/// job's like any other. Every item passes its host's rules first (`HostSchedule`): it may be
/// set aside until its host has room or is no longer held, or fail untried when its host was
/// given up.
final class DownloadDriver: CurlThreadWork {
    /// How a batch ended, handed back to the runner.
    struct Ending {
        var tally: Tally
        /// Items set aside for their hosts when the run stopped: they never started.
        var setAside: [DownloadItem]
        var hostNotes: [HostNote]
        /// The id of the last item taken from the source: an unusable one comes after it.
        var lastItemID: Int
        /// What the source handed over that the run stopped before (list order).
        var untaken: [NextItem]
    }

    private let environment: DownloadEnvironment
    private var admission: ItemAdmission
    private let thread: CurlThread
    private let source: any ItemSource
    private var cursor = FeedCursor()
    private var tally: Tally
    private let finish: @Sendable (sending Ending) -> Void
    /// What other threads leave for the driver: commits done, the source having more, the stop.
    private let mailbox: WorkMailbox<DriverEvent>
    /// Waits ended in this turn (the loop's timers), handled in its pass.
    private var due: [DriverEvent] = []
    private var isFirstPass = true
    /// The source may have more items (it said `.notYet` at most).
    private var mayTakeMore = true
    /// `--fail-fast` saw a failure: no item starts any more.
    private var failedFast = false
    private var lastItemID = -1
    /// Each job running here, under the key its waits and commits report with.
    private var jobs: [Int: (job: DownloadJob, milestones: ItemMilestones, host: String)] = [:]
    private var nextKey = 0
    /// Which job each running task is for.
    private var jobOfTask: [TaskID: Int] = [:]
    private var hosts: HostSchedule<DownloadItem>
    /// `-c`'s questions about files already there, before their items start.
    private var existingFiles = ExistingFileChecks()
    /// Items set aside for their hosts at most: beyond them the source waits (a long list of one
    /// held host's items is not read into memory).
    private let setAsideLimit: Int
    /// Jobs whose server turned their connection away, by host, in the order it did: each
    /// tries again once its host has a place (`HostSchedule.turnedAway`).
    private var waitingForPlace: [String: [Int]] = [:]
    /// Jobs with a request out, as told to the schedule (`HostSchedule.transferring`).
    private var transferring: Set<Int> = []
    /// When an item of each host last ended: a refusal right after shows no new limit.
    private var lastEnded: [String: Double] = [:]
    /// Until when a look at each host's waiting items is already asked for.
    private var lookAgainAt: [String: Double] = [:]

    private var settings: DownloadSettings { environment.settings }
    private var renderer: SharedRenderer { environment.renderer }

    /// Made on the curl thread (`TaskManager.run`); `finish` is called once, as the last item
    /// ends or the run stops.
    init(
        environment: DownloadEnvironment, admission: ItemAdmission, source: any ItemSource, tally: Tally,
        thread: CurlThread,
        finish: @escaping @Sendable (sending Ending) -> Void
    ) {
        self.environment = environment
        self.admission = admission
        self.source = source
        self.tally = tally
        self.thread = thread
        self.finish = finish
        hosts = HostSchedule(rules: environment.settings.hosts)
        setAsideLimit = max(1024, 16 * admission.concurrency)
        let mailbox = WorkMailbox<DriverEvent>(waking: thread)
        self.mailbox = mailbox
        // The source wakes the driver when it has more after saying it had nothing yet; a stop
        // wakes it too, also while it waits for a list's next line with nothing running.
        source.onMore { mailbox.send(.checkAgain) }
        environment.cancellation.onStop { _ in mailbox.send(.checkAgain) }
    }

    /// One turn's work: every event, then places given, set-aside items started, and new items
    /// taken from the source. A turn with nothing for the driver costs one look at its mailbox.
    func pass(_ taskEvents: [TaskEvent]) -> Bool {
        let mail = mailbox.takeAll()
        guard isFirstPass || !taskEvents.isEmpty || !due.isEmpty || !mail.isEmpty else { return true }
        isFirstPass = false
        // A pass's answers say what they say with one write (a batch of 404s otherwise makes a
        // system call per failed item).
        renderer.holdWrites()
        for event in taskEvents { handle(.task(event)) }
        while !due.isEmpty {
            let events = due
            due = []
            for event in events { handle(event) }
        }
        for event in mail { handle(event) }
        givePlaces()
        startSetAside()
        if mayTakeMore { mayTakeMore = takeItems() }
        renderer.releaseWrites()
        let setAsideWaiting = hosts.setAsideCount > 0 && !environment.cancellation.isRequested
        guard !(mayTakeMore || setAsideWaiting || !admission.isIdle) else { return true }
        finish(
            Ending(
                tally: tally, setAside: hosts.takeSetAside(), hostNotes: hosts.notes, lastItemID: lastItemID,
                untaken: cursor.takeRest()))
        return false
    }

    /// Takes items from the source while places are free; returns whether more may come.
    private func takeItems() -> Bool {
        while !failedFast, !environment.cancellation.isRequested, mayStartAnother() {
            switch cursor.next(from: source) {
            case .item(let item):
                lastItemID = item.plannedInfo.id
                start(item)
            case .unusable(let failure):
                let record = ItemRecord(unusable: failure)
                renderer.handle(.failed(record.info, failure))
                tally.add(record, unusableAfter: lastItemID)
            case .notice(let line):
                renderer.handle(.notice(line))
            case .notYet:
                return true
            case .end:
                return false
            }
        }
        return !(failedFast || environment.cancellation.isRequested)
    }

    /// Whether the next item may be taken from the source.
    private func mayStartAnother() -> Bool {
        admission.mayStartAnother() && hosts.setAsideCount < setAsideLimit
    }

    /// An item's record as it ends, for the tally and the source (a crawl reads a page's links).
    private func recordEnded(_ record: ItemRecord) {
        source.itemEnded(record)
        tally.add(record)
        if case .failed = record.outcome, settings.failsFast { failedFast = true }
    }

    /// Takes `item` as the source gives it: it starts, or waits for its host, or fails untried.
    private func start(_ item: DownloadItem) {
        renderer.handle(.queued(item.plannedInfo))
        let host = item.hostKey
        let now = monotonicSeconds()
        if let pace = item.hostPace { hosts.pace(host, every: pace) }
        switch hosts.arrive(item, host: host, now: now) {
        case .start:
            begin(item, host: host)
        case .setAside:
            // Held (or paused), it looks again when that ends; else an item of the host ends first.
            sayHold(of: host, now: now)
            lookAgain(at: host, now: now)
        case .notTried(let reason):
            notTried(item, host: host, reason: reason)
        }
    }

    /// Starts items set aside whose hosts may take them now, while places are free.
    private func startSetAside() {
        guard hosts.setAsideCount > 0, !environment.cancellation.isRequested else { return }
        while admission.mayStartAnother(), let (item, host) = hosts.nextReady(now: monotonicSeconds()) {
            begin(item, host: host)
            // A paced host's next item waits for its time, whatever else happens meanwhile.
            if hosts.hasSetAside(host) { lookAgain(at: host, now: monotonicSeconds()) }
        }
    }

    /// Starts `item`: `-c` first checks a file already there, then the item is prepared and its
    /// job begun.
    private func begin(_ item: DownloadItem, host: String) {
        let reportsPost = admission.needsPostReports
        admission.started(reportingPost: reportsPost)
        let milestones = ItemMilestones(reportingPost: reportsPost)
        if ExistingFileChecks.apply(to: settings) {
            switch existingFiles.check(item, host: host, milestones: milestones, environment: environment, tasks: thread) {
            case .begin: break
            case .asked: return
            case .ended(let record):
                ended(record, milestones, host: host)
                return
            }
        }
        prepare(item, host: host, milestones: milestones)
    }

    /// Prepares `item` and begins its job, or ends it when there is nothing to download.
    private func prepare(_ item: DownloadItem, host: String, milestones: ItemMilestones) {
        switch PreparedDownload.prepare(item, settings: settings, spares: environment.spares, listings: environment.listings) {
        case .skip(let info, let reason):
            renderer.handle(.skipped(info, reason: reason))
            ended(ItemRecord(info: info, outcome: .skipped), milestones, host: host)
        case .fail(let info, let failure):
            renderer.handle(.failed(info, failure))
            ended(ItemRecord(info: info, outcome: .failed(failure)), milestones, host: host)
        case .ready(let download):
            let key = nextKey
            nextKey += 1
            let job = DownloadJob(download, environment: environment, tasks: thread)
            jobs[key] = (job, milestones, host)
            perform(job.begin(), of: key)
        }
    }

    private func handle(_ event: DriverEvent) {
        switch event {
        case .task(let taskEvent):
            if let (asked, next) = existingFiles.answer(taskEvent, environment: environment, tasks: thread) {
                answered(asked, next)
                return
            }
            guard let key = jobOfTask[taskEvent.taskID], let job = jobs[key]?.job else { return }
            if taskEvent.isFinal { jobOfTask[taskEvent.taskID] = nil }
            perform(job.handle(taskEvent), of: key)
        case .retryDue(let key, let reason):
            guard let (job, _, host) = jobs[key] else { return }
            if reason == nil, let step = hostRules(for: job, of: host, key: key) {
                perform(step, of: key)
            } else {
                perform(job.retryDue(stoppedBy: reason), of: key)
            }
        case .segmentRetryDue(let key, let segment, let reason):
            guard let job = jobs[key]?.job else { return }
            perform(job.segmentRetryDue(segment, stoppedBy: reason), of: key)
        case .committed(let key, let failure):
            guard let job = jobs[key]?.job else { return }
            perform(job.committed(failure), of: key)
        case .checkAgain:
            break
        }
    }

    /// `-c`'s question about an item's file was answered (`next`), or is still on its way (nil).
    private func answered(_ asked: ExistingFileChecks.Pending, _ next: ExistingFileChecks.Next?) {
        switch next {
        case .begin?:
            prepare(asked.question.item, host: asked.host, milestones: asked.milestones)
        case .ended(let record)?:
            ended(record, asked.milestones, host: asked.host)
        case .asked?, nil:
            break
        }
    }

    /// Does what a job's step asks; the job then waits for what it asked for.
    private func perform(_ step: JobStep, of key: Int) {
        guard var entry = jobs[key] else { return }
        entry.milestones.passed(entry.job.phases).forEach(passed)
        jobs[key] = entry
        let isTransferring = entry.job.isTransferring
        if isTransferring != transferring.contains(key) {
            if isTransferring { transferring.insert(key) } else { transferring.remove(key) }
            hosts.transferring(entry.host, isTransferring)
        }
        if let wait = entry.job.takeHostWait() {
            var itemEnded = false
            if case .ended = step { itemEnded = true }
            hostAsked(entry.host, toWait: wait.seconds, cause: wait.cause, itemEnded: itemEnded)
        }
        switch step {
        case .awaitingTask(let task):
            jobOfTask[task] = key
        case .segments(let posted, let segmentWaits):
            for task in posted { jobOfTask[task] = key }
            for wait in segmentWaits {
                after(wait.seconds) { .segmentRetryDue(job: key, segment: wait.segment, $0) }
            }
        case .waiting:
            break
        case .waitToRetry(let seconds):
            waitThenRetry(key, seconds: seconds)
        case .waitForHostPlace:
            let now = monotonicSeconds()
            let justFreed = now - (lastEnded[entry.host] ?? -.infinity) < HostSchedule<DownloadItem>.pause
            let beside = admission.concurrency - 1
            guard hosts.turnedAway(entry.host, besideAtMost: beside, justFreed: justFreed, now: now) else {
                return perform(entry.job.noHostPlace(), of: key)
            }
            entry.job.parkedForHostPlace()
            waitingForPlace[entry.host, default: []].append(key)
            admission.transferPaused()
        case .commit(let descriptor, let move):
            environment.commits.move(descriptor, from: move.source, to: move.destination) { [mailbox] failure in
                mailbox.send(.committed(job: key, failure))
            }
        case .ended:
            jobs[key] = nil
            ended(entry.job.record, entry.milestones, host: entry.host)
        }
    }

    private func passed(_ milestone: ItemMilestones.Milestone) {
        switch milestone {
        case .requestPosted: admission.requestPosted()
        case .transferEnded: admission.transferEnded()
        }
    }

    private func waitThenRetry(_ key: Int, seconds: Double) {
        after(seconds) { .retryDue(job: key, $0) }
    }

    /// `event` (given the run's stop, if it came meanwhile) is handled in the pass of the turn
    /// `seconds` from now.
    private func after(_ seconds: Double, _ event: @escaping (StopReason?) -> DriverEvent) {
        thread.after(seconds: seconds) { [self] reason in due.append(event(reason)) }
    }

    private func ended(_ record: ItemRecord, _ milestones: ItemMilestones, host: String) {
        lastEnded[host] = monotonicSeconds()
        admission.finished(requestWasUnposted: !milestones.requestPosted, transferWasOpen: !milestones.transferEnded)
        recordEnded(record)
        if let givingUp = hosts.ended(host: host, HostSchedule<DownloadItem>.Ending(record.outcome)) {
            gaveUp(host, givingUp)
        }
    }
}

// MARK: Hosts

extension DownloadDriver {
    /// Jobs turned away by their servers try again as their hosts have places, first in, first
    /// served; once the run stopped, or a host was given up, they end instead.
    private func givePlaces() {
        guard !waitingForPlace.isEmpty else { return }
        let now = monotonicSeconds()
        for host in waitingForPlace.keys.sorted() {
            while let key = waitingForPlace[host]?.first {
                let stop = environment.cancellation.reason
                let givenUp = hosts.givenUp(host)
                guard stop != nil || givenUp != nil || hosts.takePlace(host, now: now) else {
                    lookAgain(at: host, now: now)
                    break
                }
                waitingForPlace[host]?.removeFirst()
                admission.transferResumed()
                if stop != nil || givenUp != nil { hosts.stopsWaiting(host) }
                guard let job = jobs[key]?.job else { preconditionFailure("a job waiting for a place ended meanwhile") }
                if let stop {
                    perform(job.retryDue(stoppedBy: stop), of: key)
                } else if let givenUp {
                    perform(job.retryAbandoned(HostMessages.notTried(host, reason: givenUp, again: true)), of: key)
                } else {
                    if let takes = hosts.limitToSay(host) { renderer.handle(.notice(HostMessages.takes(host, takes))) }
                    perform(job.retryDue(stoppedBy: nil), of: key)
                }
            }
            if waitingForPlace[host]?.isEmpty == true { waitingForPlace[host] = nil }
        }
    }

    /// `host`'s waiting items (set aside, or waiting for a place) wait for a pause or a hold to
    /// end (not only for a place): the driver looks again then, whatever else happens meanwhile.
    private func lookAgain(at host: String, now: Double) {
        guard let until = hosts.waitingUntil(host, now: now), until > lookAgainAt[host] ?? 0 else { return }
        lookAgainAt[host] = until
        after(until - now) { _ in .checkAgain }
    }

    /// A server answered with Retry-After (or a store with SlowDown): every item of its host
    /// waits as long (one notice). `itemEnded`: the answer ended its item (its failure line says
    /// it), so the hold is told once it keeps another item waiting.
    private func hostAsked(_ host: String, toWait seconds: Double, cause: HoldCause, itemEnded: Bool) {
        let now = monotonicSeconds()
        let sayNow = !itemEnded || hosts.hasSetAside(host)
        if hosts.hold(host, until: now + seconds, now: now, cause: cause, sayNow: sayNow) {
            renderer.handle(.notice(HostMessages.held(host, seconds: seconds, cause: cause)))
        }
        // Items set aside for the host look again when the hold ends (those set aside later
        // arrange it as they arrive); a hold no item waits for keeps nothing waiting, so an
        // item's last 429 does not keep the run going.
        if hosts.hasSetAside(host) { lookAgain(at: host, now: now) }
    }

    /// A hold not told as it began, as it first keeps an item waiting.
    private func sayHold(of host: String, now: Double) {
        if let (seconds, cause) = hosts.holdToSay(host, now: now) {
            renderer.handle(.notice(HostMessages.held(host, seconds: seconds, cause: cause)))
        }
    }

    /// Whether a job whose retry is due waits longer for its host, or ends because the host was
    /// given up; nil when it tries again now.
    private func hostRules(for job: DownloadJob, of host: String, key: Int) -> JobStep? {
        if let reason = hosts.givenUp(host) {
            return job.retryAbandoned(HostMessages.notTried(host, reason: reason, again: true))
        }
        let now = monotonicSeconds()
        guard let until = hosts.heldUntil(host, now: now) else { return nil }
        sayHold(of: host, now: now)
        waitThenRetry(key, seconds: until - now)
        return .waiting
    }

    /// An item of a given-up host: it fails at once, without a request.
    private func notTried(_ item: DownloadItem, host: String, reason: FailureReason) {
        let info = item.plannedInfo
        let failure = ItemFailure(item: item.shownURL, HostMessages.notTried(host, reason: reason, again: false))
        renderer.handle(.failed(info, failure))
        recordEnded(ItemRecord(info: info, outcome: .failed(failure)))
    }

    /// `host` failed its items the same way too many times in a row: one notice, and the items
    /// set aside for it fail untried, as do those already admitted whose requests have not
    /// reached it (the curl thread's, `TaskManager.giveUp`): waiting at the `-j` gate, or
    /// connecting to a host that does not answer.
    private func gaveUp(_ host: String, _ givingUp: HostSchedule<DownloadItem>.GivingUp) {
        thread.giveUp(origin: host, failing: HostMessages.notTried(host, reason: givingUp.reason, again: false))
        renderer.handle(.notice(HostMessages.givenUp(host, givingUp.reason, inARow: givingUp.inARow)))
        for item in givingUp.untried {
            let failure = ItemFailure(item: item.shownURL, HostMessages.notTried(host, reason: givingUp.reason, again: false))
            renderer.handle(.failed(item.plannedInfo, failure))
            recordEnded(ItemRecord(info: item.plannedInfo, outcome: .failed(failure)))
        }
    }
}
