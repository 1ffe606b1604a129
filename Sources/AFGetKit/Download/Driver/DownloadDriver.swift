import AFGetProgress
import AFGetSession
import AFGetSupport

/// Runs the items of a batch, `-j` at a time, without a task per item: every job's task events,
/// retry waits and moves into place come back as events on one channel, read here in batches,
/// and each is handed to its job, whose answer (`JobStep`) is performed here. An item is
/// prepared, transferred and moved into place without a thread of its own or a hand-over to
/// one; a split download's segments (`-s`) and `-c`'s question about a file already there are
/// tasks of its job's like any other. Every item passes its host's rules first (`HostSchedule`): it may be set aside until its
/// host has room or is no longer held, or fail untried when its host was given up.
final class DownloadDriver {
    private let environment: DownloadEnvironment
    private var admission: ItemAdmission
    private let events = EventChannel<DriverEvent>()
    /// Where the jobs' tasks send their events.
    private let route: TaskEventRoute
    /// Each job running here, under the key its waits and commits report with.
    private var jobs: [Int: (job: DownloadJob, milestones: ItemMilestones, host: String)] = [:]
    private var nextKey = 0
    /// Which job each running task is for.
    private var jobOfTask: [TaskID: Int] = [:]
    /// Waits (before a retry, a hold's end), each to run as a child task of `run` and to end in
    /// an event.
    private var waits: [@Sendable () async -> Void] = []
    /// An item's record as it ends, for the runner's tally.
    private let recordEnded: (ItemRecord) -> Void
    private var hosts: HostSchedule<DownloadItem>
    /// `-c`'s questions about files already there, before their items start.
    private var existingFiles = ExistingFileChecks()
    /// Items set aside for their hosts at most: beyond them the feed waits (a long list of one
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

    init(environment: DownloadEnvironment, admission: ItemAdmission, recordEnded: @escaping (ItemRecord) -> Void) {
        self.environment = environment
        self.admission = admission
        self.recordEnded = recordEnded
        hosts = HostSchedule(rules: environment.settings.hosts)
        setAsideLimit = max(1024, 16 * admission.concurrency)
        route = TaskEventRoute { [events] in events.send(contentsOf: $0.map(DriverEvent.task)) }
    }

    /// Wakes the driver, from any thread, to take more items or to stop (the feed has more, the
    /// run stopped).
    var checkAgain: @Sendable () -> Void { { [events] in events.send(.checkAgain) } }

    /// What the summary says of hosts held back or given up.
    var hostNotes: [HostNote] { hosts.notes }

    /// Whether the next item may be taken from the feed.
    func mayStartAnother() -> Bool { admission.mayStartAnother() && hosts.setAsideCount < setAsideLimit }

    /// Runs until `takeItems` has started everything it will (it is called whenever a place may
    /// be free, and returns whether more may come) and every item has ended. Returns the items
    /// still set aside for their hosts when the run stopped: they never started.
    func run(takeItems: (DownloadDriver) async -> Bool) async -> [DownloadItem] {
        await withDiscardingTaskGroup { group in
            var mayTakeMore = await takeItems(self)
            while true {
                for work in waits { group.addTask(operation: work) }
                waits = []
                let stopped = environment.cancellation.isRequested
                let setAsideWaiting = hosts.setAsideCount > 0 && !stopped
                guard mayTakeMore || setAsideWaiting || !admission.isIdle, let batch = await events.nextBatch() else {
                    break
                }
                // A pass's answers say what they say with one write (a batch of 404s otherwise
                // makes a system call per failed item).
                renderer.holdWrites()
                for event in batch { await handle(event) }
                await givePlaces()
                await startSetAside()
                if mayTakeMore { mayTakeMore = await takeItems(self) }
                renderer.releaseWrites()
            }
        }
        return hosts.takeSetAside()
    }

    /// Takes `item` as the feed gives it: it starts, or waits for its host, or fails untried.
    func start(_ item: DownloadItem) async {
        renderer.handle(.queued(item.plannedInfo))
        let host = item.hostKey
        let now = monotonicSeconds()
        switch hosts.arrive(item, host: host, now: now) {
        case .start:
            await begin(item, host: host)
        case .setAside:
            // Held (or paused), it looks again when that ends; else an item of the host ends first.
            sayHold(of: host, now: now)
            lookAgain(at: host, now: now)
        case .notTried(let reason):
            notTried(item, host: host, reason: reason)
        }
    }

    /// Starts items set aside whose hosts may take them now, while places are free.
    private func startSetAside() async {
        guard hosts.setAsideCount > 0, !environment.cancellation.isRequested else { return }
        while admission.mayStartAnother(), let (item, host) = hosts.nextReady(now: monotonicSeconds()) {
            await begin(item, host: host)
        }
    }

    /// Starts `item`: `-c` first checks a file already there, then the item is prepared and its
    /// job begun.
    private func begin(_ item: DownloadItem, host: String) async {
        let reportsPost = admission.needsPostReports
        admission.started(reportingPost: reportsPost)
        let milestones = ItemMilestones(reportingPost: reportsPost)
        if ExistingFileChecks.apply(to: settings) {
            switch existingFiles.check(item, host: host, milestones: milestones, environment: environment, route: route) {
            case .begin: break
            case .asked: return
            case .ended(let record):
                ended(record, milestones, host: host)
                return
            }
        }
        await prepare(item, host: host, milestones: milestones)
    }

    /// Prepares `item` and begins its job, or ends it when there is nothing to download.
    private func prepare(_ item: DownloadItem, host: String, milestones: ItemMilestones) async {
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
            let job = DownloadJob(download, environment: environment, route: route)
            jobs[key] = (job, milestones, host)
            await perform(job.begin(), of: key)
        }
    }

    private func handle(_ event: DriverEvent) async {
        switch event {
        case .task(let taskEvent):
            if let (asked, next) = existingFiles.answer(taskEvent, environment: environment) {
                await answered(asked, next)
                return
            }
            guard let key = jobOfTask[taskEvent.taskID], let job = jobs[key]?.job else { return }
            if taskEvent.isFinal { jobOfTask[taskEvent.taskID] = nil }
            await perform(job.handle(taskEvent), of: key)
        case .retryDue(let key, let reason):
            guard let (job, _, host) = jobs[key] else { return }
            if reason == nil, let step = hostRules(for: job, of: host, key: key) {
                await perform(step, of: key)
            } else {
                await perform(job.retryDue(stoppedBy: reason), of: key)
            }
        case .segmentRetryDue(let key, let segment, let reason):
            guard let job = jobs[key]?.job else { return }
            await perform(job.segmentRetryDue(segment, stoppedBy: reason), of: key)
        case .committed(let key, let failure):
            guard let job = jobs[key]?.job else { return }
            await perform(job.committed(failure), of: key)
        case .checkAgain:
            break
        }
    }

    /// `-c`'s question about an item's file was answered (`next`), or is still on its way (nil).
    private func answered(_ asked: ExistingFileChecks.Pending, _ next: ExistingFileChecks.Next?) async {
        switch next {
        case .begin?:
            await prepare(asked.question.item, host: asked.host, milestones: asked.milestones)
        case .ended(let record)?:
            ended(record, asked.milestones, host: asked.host)
        case .asked?, nil:
            break
        }
    }

    /// Does what a job's step asks; the job then waits for what it asked for.
    private func perform(_ step: JobStep, of key: Int) async {
        guard var entry = jobs[key] else { return }
        entry.milestones.passed(entry.job.phases).forEach(passed)
        jobs[key] = entry
        let isTransferring = entry.job.isTransferring
        if isTransferring != transferring.contains(key) {
            if isTransferring { transferring.insert(key) } else { transferring.remove(key) }
            hosts.transferring(entry.host, isTransferring)
        }
        if let seconds = entry.job.takeHostWait() {
            var itemEnded = false
            if case .ended = step { itemEnded = true }
            hostAsked(entry.host, toWait: seconds, itemEnded: itemEnded)
        }
        switch step {
        case .awaitingTask(let task):
            jobOfTask[task] = key
        case .segments(let posted, let segmentWaits):
            for task in posted { jobOfTask[task] = key }
            for wait in segmentWaits {
                waits.append { [events, environment] in
                    let reason = await environment.cancellation.wait(seconds: wait.seconds)
                    events.send(.segmentRetryDue(job: key, segment: wait.segment, reason))
                }
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
                return await perform(entry.job.noHostPlace(), of: key)
            }
            entry.job.parkedForHostPlace()
            waitingForPlace[entry.host, default: []].append(key)
            admission.transferPaused()
        case .commit(let descriptor, let move):
            environment.commits.move(descriptor, from: move.source, to: move.destination) { [events] failure in
                events.send(.committed(job: key, failure))
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
        waits.append { [events, environment] in
            events.send(.retryDue(job: key, await environment.cancellation.wait(seconds: seconds)))
        }
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
    private func givePlaces() async {
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
                    await perform(job.retryDue(stoppedBy: stop), of: key)
                } else if let givenUp {
                    await perform(job.retryAbandoned(HostMessages.notTried(host, reason: givenUp, again: true)), of: key)
                } else {
                    if let takes = hosts.limitToSay(host) { renderer.handle(.notice(HostMessages.takes(host, takes))) }
                    await perform(job.retryDue(stoppedBy: nil), of: key)
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
        waits.append { [events, environment] in
            _ = await environment.cancellation.wait(seconds: until - now)
            events.send(.checkAgain)
        }
    }

    /// A server answered with Retry-After: every item of its host waits as long (one notice).
    /// `itemEnded`: the answer ended its item (its failure line says it), so the hold is told
    /// once it keeps another item waiting.
    private func hostAsked(_ host: String, toWait seconds: Double, itemEnded: Bool) {
        let now = monotonicSeconds()
        if hosts.hold(host, until: now + seconds, now: now, sayNow: !itemEnded || hosts.hasSetAside(host)) {
            renderer.handle(.notice(HostMessages.held(host, seconds: seconds)))
        }
        // Items set aside for the host look again when the hold ends (those set aside later
        // arrange it as they arrive); a hold no item waits for keeps nothing waiting, so an
        // item's last 429 does not keep the run going.
        if hosts.hasSetAside(host) { lookAgain(at: host, now: now) }
    }

    /// A hold not told as it began, as it first keeps an item waiting.
    private func sayHold(of host: String, now: Double) {
        if let seconds = hosts.holdToSay(host, now: now) { renderer.handle(.notice(HostMessages.held(host, seconds: seconds))) }
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
        environment.manager.giveUp(origin: host, failing: HostMessages.notTried(host, reason: givingUp.reason, again: false))
        renderer.handle(.notice(HostMessages.givenUp(host, givingUp.reason, inARow: givingUp.inARow)))
        for item in givingUp.untried {
            let failure = ItemFailure(item: item.shownURL, HostMessages.notTried(host, reason: givingUp.reason, again: false))
            renderer.handle(.failed(item.plannedInfo, failure))
            recordEnded(ItemRecord(info: item.plannedInfo, outcome: .failed(failure)))
        }
    }
}
