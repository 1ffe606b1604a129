import AFGetProgress
import AFGetSession
import AFGetSupport

/// Runs the items of a batch, `-j` at a time, without a task per item: every job's task events,
/// retry waits and moves into place come back as events on one channel, read here in batches,
/// and each is handed to its job, whose answer (`JobStep`) is performed here. An item is
/// prepared, transferred and moved into place without a thread of its own or a hand-over to
/// one. Items that await work of their own (`-s`, `-c`) run as a `SoloDownload` in a child task.
final class DownloadDriver {
    private let environment: DownloadEnvironment
    private var admission: ItemAdmission
    private let events = EventChannel<DriverEvent>()
    /// Where the jobs' tasks send their events.
    private let route: TaskEventRoute
    /// Each job running here, under the key its waits and commits report with.
    private var jobs: [Int: (job: DownloadJob, milestones: ItemMilestones)] = [:]
    private var nextKey = 0
    /// Which job each running task is for.
    private var jobOfTask: [TaskID: Int] = [:]
    /// Work that waits (a retry's wait, an item in a task of its own), each to run as a child
    /// task of `run` and to end in an event.
    private var waits: [@Sendable () async -> Void] = []
    /// An item's record as it ends, for the runner's tally.
    private let recordEnded: (ItemRecord) -> Void

    private var settings: DownloadSettings { environment.settings }
    private var renderer: SharedRenderer { environment.renderer }

    init(environment: DownloadEnvironment, admission: ItemAdmission, recordEnded: @escaping (ItemRecord) -> Void) {
        self.environment = environment
        self.admission = admission
        self.recordEnded = recordEnded
        route = TaskEventRoute { [events] in events.send(contentsOf: $0.map(DriverEvent.task)) }
    }

    /// Wakes the driver, from any thread, to take more items or to stop (the feed has more, the
    /// run stopped).
    var checkAgain: @Sendable () -> Void { { [events] in events.send(.checkAgain) } }

    /// Whether the next item may start.
    func mayStartAnother() -> Bool { admission.mayStartAnother() }

    /// Runs until `takeItems` has started everything it will (it is called whenever a place may
    /// be free, and returns whether more may come) and every item has ended.
    func run(takeItems: (DownloadDriver) async -> Bool) async {
        await withDiscardingTaskGroup { group in
            var mayTakeMore = await takeItems(self)
            while true {
                for work in waits { group.addTask(operation: work) }
                waits = []
                guard mayTakeMore || !admission.isIdle, let batch = await events.nextBatch() else { return }
                for event in batch { await handle(event) }
                if mayTakeMore { mayTakeMore = await takeItems(self) }
            }
        }
    }

    /// Starts `item`: in a task of its own when it needs one, else prepared and begun here.
    func start(_ item: DownloadItem) async {
        renderer.handle(.queued(item.plannedInfo))
        let reportsPost = admission.needsPostReports
        admission.started(reportingPost: reportsPost)
        let milestones = ItemMilestones(reportingPost: reportsPost)
        if needsTaskOfItsOwn {
            waits.append { [environment, events] in
                await Self.runSolo(item, milestones: milestones, environment: environment, events: events)
            }
            return
        }
        switch PreparedDownload.prepare(item, settings: settings, spares: environment.spares, listings: environment.listings) {
        case .skip(let info, let reason):
            renderer.handle(.skipped(info, reason: reason))
            ended(ItemRecord(info: info, outcome: .skipped), milestones)
        case .fail(let info, let failure):
            renderer.handle(.failed(info, failure))
            ended(ItemRecord(info: info, outcome: .failed(failure)), milestones)
        case .ready(let download):
            let key = nextKey
            nextKey += 1
            let job = DownloadJob(download, environment: environment, route: route)
            jobs[key] = (job, milestones)
            await perform(job.begin(), of: key)
        }
    }

    /// `-s` items run their segments' tasks, `-c` items check a file before they start.
    private var needsTaskOfItsOwn: Bool {
        settings.split > 1 || (settings.continuesExistingFiles && settings.onExists == .skip)
    }

    private func handle(_ event: DriverEvent) async {
        switch event {
        case .task(let taskEvent):
            guard let key = jobOfTask[taskEvent.taskID], let job = jobs[key]?.job else { return }
            if taskEvent.isFinal { jobOfTask[taskEvent.taskID] = nil }
            await perform(job.handle(taskEvent), of: key)
        case .retryDue(let key, let reason):
            guard let job = jobs[key]?.job else { return }
            await perform(job.retryDue(stoppedBy: reason), of: key)
        case .committed(let key, let failure):
            guard let job = jobs[key]?.job else { return }
            await perform(job.committed(failure), of: key)
        case .milestone(let milestone):
            passed(milestone)
        case .soloEnded(let record, let milestones):
            ended(record, milestones)
        case .checkAgain:
            break
        }
    }

    /// Does what a job's step asks, until the job waits for something.
    private func perform(_ step: JobStep, of key: Int) async {
        guard var entry = jobs[key] else { return }
        var step = step
        while true {
            entry.milestones.passed(entry.job.phases).forEach(passed)
            jobs[key] = entry
            switch step {
            case .awaitingTask(let task):
                jobOfTask[task] = key
                return
            case .waiting:
                return
            case .waitToRetry(let seconds):
                waits.append { [events, environment] in
                    events.send(.retryDue(job: key, await environment.cancellation.wait(seconds: seconds)))
                }
                return
            case .commit(let descriptor, let move):
                environment.commits.move(descriptor, from: move.source, to: move.destination) { [events] failure in
                    events.send(.committed(job: key, failure))
                }
                return
            case .runSegments:
                // Only a part an earlier `-s` run left in segments gets here (this run's items
                // that split have tasks of their own): its segments are awaited here.
                step = await entry.job.runSegments()
            case .ended:
                jobs[key] = nil
                ended(entry.job.record, entry.milestones)
                return
            }
        }
    }

    private func passed(_ milestone: ItemMilestones.Milestone) {
        switch milestone {
        case .requestPosted: admission.requestPosted()
        case .transferEnded: admission.transferEnded()
        }
    }

    private func ended(_ record: ItemRecord, _ milestones: ItemMilestones) {
        admission.finished(requestWasUnposted: !milestones.requestPosted, transferWasOpen: !milestones.transferEnded)
        recordEnded(record)
    }
}

extension DownloadDriver {
    /// An item in a task of its own: `-c`'s check of a file already there, then the job.
    private static func runSolo(
        _ item: DownloadItem, milestones: ItemMilestones, environment: DownloadEnvironment,
        events: EventChannel<DriverEvent>
    ) async {
        var milestones = milestones
        let renderer = environment.renderer
        let settings = environment.settings
        if settings.continuesExistingFiles && settings.onExists == .skip,
            let ended = await continueExistingFile(item, environment: environment)
        {
            events.send(.soloEnded(ended, milestones))
            return
        }
        let record: ItemRecord
        switch PreparedDownload.prepare(item, settings: settings, spares: environment.spares, listings: environment.listings) {
        case .skip(let info, let reason):
            renderer.handle(.skipped(info, reason: reason))
            record = ItemRecord(info: info, outcome: .skipped)
        case .fail(let info, let failure):
            renderer.handle(.failed(info, failure))
            record = ItemRecord(info: info, outcome: .failed(failure))
        case .ready(let download):
            let taskEvents = EventChannel<TaskEvent>()
            let job = DownloadJob(download, environment: environment, route: TaskEventRoute(taskEvents))
            await SoloDownload(environment: environment, events: events).run(
                job, taskEvents: taskEvents, milestones: &milestones)
            record = job.record
        }
        events.send(.soloEnded(record, milestones))
    }

    /// `-c`: a file of the item's name without resume data is checked against the server and
    /// made afget's own part file, or ends the item (complete, or left alone); nil to go on.
    private static func continueExistingFile(_ item: DownloadItem, environment: DownloadEnvironment) async -> ItemRecord? {
        let renderer = environment.renderer
        var record: ItemRecord
        switch await ForeignPart.adopt(item, environment: environment) {
        case .notApplicable:
            return nil
        case .adopted(let notice):
            if !notice.isEmpty { renderer.handle(.notice(notice)) }
            return nil
        case .complete(let path, let reason):
            // Complete by its length and last bytes; a checksum it has still reads it once.
            do throws(ItemFailure) {
                let checksum = try PreparedDownload.expectedChecksum(item, settings: environment.settings)
                do throws(TransferFailure) {
                    let checkedReason = try PreparedDownload.skipReason(path, reason, checksum: checksum)
                    record = ItemRecord(info: item.info(path: path), outcome: .skipped)
                    renderer.handle(.skipped(record.info, reason: checkedReason))
                } catch {
                    throw ItemFailure(item: path, error)
                }
            } catch {
                record = ItemRecord(info: item.info(path: path), outcome: .failed(error))
                renderer.handle(.failed(record.info, error))
            }
        case .leftAlone(let path, let failure):
            let failure = ItemFailure(item: path, failure)
            record = ItemRecord(info: item.info(path: path), outcome: .failed(failure))
            renderer.handle(.failed(record.info, failure))
        case .stopped(let path):
            record = ItemRecord(info: item.info(path: path))
            record.stoppedEarly = ItemRecord.EarlyStop(
                cause: .interrupted, message: "stopped before it was continued: the file is left as it is")
        }
        return record
    }
}
