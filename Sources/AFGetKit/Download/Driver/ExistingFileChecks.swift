import AFGetProgress
import AFGetSession
import AFGetSupport

/// `-c` before an item starts: a file of its name without resume data, which another tool may
/// have left short, is checked against the server (`ForeignPart`) and made afget's own part
/// file, or ends the item (complete, or left alone). The server's answer comes to the driver as
/// any task's events do; this keeps the questions on their way.
struct ExistingFileChecks {
    /// An item whose question is on its way, with what its driver knows of it.
    struct Pending {
        let question: ForeignPart.Question
        let host: String
        let milestones: ItemMilestones
    }

    /// What follows a check for the item.
    enum Next {
        /// The item starts (its file, if any, is now afget's part file).
        case begin
        /// The server is asked: its answer comes in a task event.
        case asked
        /// The item ended without a download.
        case ended(ItemRecord)
    }

    private var pending: [TaskID: Pending] = [:]

    /// Whether `-c` checks files before their items start.
    static func apply(to settings: DownloadSettings) -> Bool {
        settings.continuesExistingFiles && settings.onExists == .skip
    }

    /// Looks at `item`'s file, asking the server when there is one to check.
    mutating func check(
        _ item: DownloadItem, host: String, milestones: ItemMilestones, environment: DownloadEnvironment, tasks: any TaskPosting
    ) -> Next {
        switch ForeignPart.check(item, settings: environment.settings) {
        case .decided(let verdict):
            return Self.next(after: verdict, item: item, environment: environment)
        case .ask(let question):
            let task = ForeignPart.ask(question, settings: environment.settings, tasks: tasks)
            pending[task] = Pending(question: question, host: host, milestones: milestones)
            return .asked
        }
    }

    /// A task event: nil when it is not a question's; else the item's next step, once the
    /// answer decides it.
    mutating func answer(_ event: TaskEvent, environment: DownloadEnvironment, tasks: any TaskPosting) -> (Pending, Next?)? {
        guard let asked = pending[event.taskID] else { return nil }
        guard let verdict = ForeignPart.answer(event, to: asked.question, tasks: tasks) else {
            return (asked, nil)
        }
        pending[event.taskID] = nil
        return (asked, Self.next(after: verdict, item: asked.question.item, environment: environment))
    }

    /// What a verdict means for the item: it starts, or ends here, told to the renderer.
    private static func next(after verdict: ForeignPart.Verdict, item: DownloadItem, environment: DownloadEnvironment)
        -> Next
    {
        let renderer = environment.renderer
        var record: ItemRecord
        switch verdict {
        case .notApplicable:
            return .begin
        case .adopted(let notice):
            if !notice.isEmpty { renderer.handle(.notice(notice)) }
            return .begin
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
        return .ended(record)
    }
}
