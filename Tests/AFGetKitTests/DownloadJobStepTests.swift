@testable import AFGetKit
@testable import AFGetProgress
@testable import AFGetRequest
@testable import AFGetSession
@testable import AFGetSupport
import Foundation
import Glibc
import Synchronization
import XCTest

/// A job's steps without a socket: the test plays the driver, handing the job the events its
/// tasks would send and performing what it asks for. A posted task goes nowhere
/// (`TasksGoingNowhere`); the files are real.
final class DownloadJobStepTests: XCTestCase {
    var directory = ""
    let events = Recorded()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("job-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(atPath: directory)
    }

    static let etag = "\"v1\""

    func head(_ status: Int, _ headers: [(String, String)]) -> ResponseHead {
        ResponseHead(status: status, headers: headers.map { (name: $0.0, value: $0.1) })
    }

    /// `name`'s part file holding `bytes`, with resume data counting them against ETag "v1".
    private func leaveAPart(_ name: String, holding bytes: [UInt8], length: Int64?) throws {
        let destination = "\(directory)/\(name)"
        XCTAssertTrue(FileManager.default.createFile(atPath: destination + ".afpart", contents: Data(bytes)))
        try ResumeStore(destination: destination).save(
            ResumeData(
                url: "http://example.invalid/\(name)", bytesReceived: Int64(bytes.count),
                validators: EntityValidators(entityTag: Self.etag), tempFileName: name + ".afpart",
                destination: destination, expectedLength: length))
    }

    /// Performs a commit step as the driver does, then tells the job.
    private func commit(_ step: JobStep, of job: DownloadJob, in environment: DownloadEnvironment) async -> JobStep {
        guard case .commit(let descriptor, let move) = step else {
            XCTFail("expected the commit, got \(step)")
            return step
        }
        return job.committed(await environment.commits.move(descriptor, from: move.source, to: move.destination))
    }

    /// A job for a new file `name` in the test's directory, and the environment it runs in.
    func job(_ name: String = "file.bin", settings: DownloadSettings = DownloadSettings()) throws -> (
        DownloadJob, DownloadEnvironment
    ) {
        let manager = TaskManager()
        manager.invalidate()
        let environment = DownloadEnvironment(
            manager: manager, renderer: SharedRenderer(Recorder(events)), settings: settings, itemsAhead: 1)
        let item = DownloadItem(index: 0, url: "http://example.invalid/\(name)", output: .path("\(directory)/\(name)"))
        guard
            case .ready(let download) = PreparedDownload.prepare(
                item, settings: settings, spares: environment.spares, listings: environment.listings)
        else { throw XCTSkip("the item could not be prepared") }
        return (DownloadJob(download, environment: environment, tasks: TasksGoingNowhere()), environment)
    }

    func awaited(_ step: JobStep, file: StaticString = #filePath, line: UInt = #line) throws -> TaskID {
        guard case .awaitingTask(let task) = step else {
            XCTFail("expected a task to wait for, got \(step)", file: file, line: line)
            throw XCTSkip()
        }
        return task
    }

    func progress(_ bytes: Int64) -> TransferProgress {
        var progress = TransferProgress()
        progress.received = bytes
        progress.written = bytes
        progress.startedAt = monotonicSeconds()
        return progress
    }

    /// Request, head, body, commit, done: the whole life of a small file is four calls, and the
    /// file lands in place whole.
    func testASmallFileGoesFromRequestToItsPlaceInFourCalls() async throws {
        let (job, environment) = try job()
        let task = try awaited(job.begin())
        let body: [UInt8] = Array("hello".utf8)
        let response = head(200, [("Content-Length", "5"), ("ETag", Self.etag)])
        XCTAssertEqual(try awaited(job.handle(.started(task, response))), task)
        // The bytes the curl thread would have written.
        let part = try XCTUnwrap(job.download.part)
        XCTAssertEqual(pwrite(part.descriptor, body, body.count, 0), body.count)
        let ended = job.handle(.completed(task, TaskResponse(head: response, finalURL: "", progress: progress(5), body: [])))
        guard case .commit(let descriptor, let move) = ended else { return XCTFail("expected the commit, got \(ended)") }
        XCTAssertEqual(move.destination, "\(directory)/file.bin")
        let failure = await environment.commits.move(descriptor, from: move.source, to: move.destination)
        guard case .ended(.done(transferred: 5)) = job.committed(failure) else { return XCTFail("not done") }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/file.bin")), Data(body))
        XCTAssertEqual(job.phases.phase, .ended)
        XCTAssertTrue(events.contains { if case .done = $0 { true } else { false } })
    }

    /// A transient failure waits before the next attempt; a stop during the wait, or during a
    /// transfer, ends the item stopped, with nothing left on disk for a new file.
    func testAStopEndsTheItemInEveryWait() throws {
        let (waiting, _) = try job("a.bin")
        let first = try awaited(waiting.begin())
        let reset = TransferFailure(
            .connection(.curl(code: 56, said: "Connection reset by peer", failureClass: .network)), transient: true)
        guard case .waitToRetry(let seconds) = waiting.handle(.failed(first, reset, TransferProgress())) else {
            return XCTFail("a transient failure is retried")
        }
        XCTAssertNil(waiting.takeHostWait(), "the server asked for no wait")
        XCTAssertGreaterThan(seconds, 0)
        XCTAssertEqual(waiting.phases.phase, .waitingToRetry)
        guard case .ended(.stopped) = waiting.retryDue(stoppedBy: .signal(SIGINT)) else {
            return XCTFail("a stop during the wait ends the item")
        }

        let (transferring, environment) = try job("b.bin")
        let task = try awaited(transferring.begin())
        environment.cancellation.stop(.signal(SIGINT))
        guard case .ended(.stopped) = transferring.handle(.canceled(task, .signal(SIGINT), TransferProgress())) else {
            return XCTFail("a stop during the transfer ends the item")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory), [], "a new file stopped leaves nothing behind")
    }

    /// An FTP server turning the item away asks for a place at its host rather than a backoff,
    /// counting no attempt, as many times as the driver parks it up to `mostHostPlaceWaits`;
    /// then, or with `--retry 0`, the refusal is a failed attempt as before.
    func testATurnedAwayItemWaitsForAPlaceAtItsHost() throws {
        let refused = TransferFailure(.connection(.turnedAway), transient: true)
        let (job, _) = try job()
        var task = try awaited(job.begin())
        for wait in 1...DownloadJob.mostHostPlaceWaits {
            guard case .waitForHostPlace = job.handle(.failed(task, refused, TransferProgress())) else {
                return XCTFail("wait \(wait)")
            }
            XCTAssertEqual(job.retries.failedAttempts, 0, "no attempt counted")
            job.parkedForHostPlace()
            task = try awaited(job.retryDue(stoppedBy: nil))
        }
        guard case .waitToRetry = job.handle(.failed(task, refused, TransferProgress())) else { return XCTFail("then a backoff") }

        var once = DownloadSettings()
        once.retry.maxRetries = 0
        let (noRetries, _) = try self.job("none.bin", settings: once)
        let first = try awaited(noRetries.begin())
        guard case .ended(.failed) = noRetries.handle(.failed(first, refused, TransferProgress())) else {
            return XCTFail("--retry 0: the refusal ends the item")
        }
    }

    /// The retry's wait over, the next attempt goes out as a new task.
    func testARetryPostsANewAttempt() throws {
        let (job, _) = try job()
        let first = try awaited(job.begin())
        let reset = TransferFailure(
            .connection(.curl(code: 56, said: "Connection reset by peer", failureClass: .network)), transient: true)
        guard case .waitToRetry = job.handle(.failed(first, reset, TransferProgress())) else { return XCTFail() }
        let second = try awaited(job.retryDue(stoppedBy: nil))
        XCTAssertNotEqual(second, first)
        XCTAssertEqual(job.phases.phase, .transferring(attempt: 2))
        guard case .awaitingTask(second) = job.handle(.progress(first, progress(1))) else {
            return XCTFail("a late event of the first task changes nothing")
        }
    }
}

extension DownloadJobStepTests {
    /// A part holding the recorded length, continued and answered 416 without the file's length:
    /// a HEAD request (a task of its own) confirms the part is the whole file, which is moved
    /// into place without a byte fetched.
    func testA416WithoutALengthIsConfirmedByAHeadRequest() async throws {
        try leaveAPart("whole.bin", holding: Array("hello".utf8), length: 5)
        let (job, environment) = try job("whole.bin")
        let ranged = try awaited(job.begin())
        let refused = head(416, [])
        let asked = job.handle(.completed(ranged, TaskResponse(head: refused, finalURL: "", progress: progress(0), body: [])))
        let confirming = try awaited(asked)
        XCTAssertNotEqual(confirming, ranged, "the HEAD request is a task of its own")
        let headAnswer = head(200, [("Content-Length", "5"), ("ETag", Self.etag)])
        let step = job.handle(
            .completed(confirming, TaskResponse(head: headAnswer, finalURL: "", progress: TransferProgress(), body: [])))
        guard case .ended(.done) = await commit(step, of: job, in: environment) else { return XCTFail("not done") }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/whole.bin")), Data("hello".utf8))
        XCTAssertTrue(
            events.contains { if case .notice(let line) = $0 { line.contains("a HEAD request confirmed it") } else { false } })
    }

    /// A continue answered with the whole file (200): the item says it starts over, and the
    /// file is the new body from its first byte.
    func testAContinueAnsweredWithTheWholeFileStartsOver() async throws {
        try leaveAPart("again.bin", holding: Array("hello".utf8), length: 10)
        let (job, environment) = try job("again.bin")
        let ranged = try awaited(job.begin())
        let whole = head(200, [("Content-Length", "10"), ("ETag", "\"v2\"")])
        XCTAssertEqual(try awaited(job.handle(.started(ranged, whole))), ranged)
        XCTAssertTrue(events.contains { if case .restarting = $0 { true } else { false } })
        let body = Array("0123456789".utf8)
        let part = try XCTUnwrap(job.download.part)
        XCTAssertEqual(pwrite(part.descriptor, body, body.count, 0), body.count)
        let step = job.handle(.completed(ranged, TaskResponse(head: whole, finalURL: "", progress: progress(10), body: [])))
        guard case .ended(.done) = await commit(step, of: job, in: environment) else { return XCTFail("not done") }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/again.bin")), Data(body))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["again.bin"], "part and resume data gone")
    }
}

/// The events a job sent to its renderer.
final class Recorded: Sendable {
    private let events = PthreadMutex<[ItemEvent]>([])

    func append(_ event: ItemEvent) { events.withLock { $0.append(event) } }

    func contains(where matches: (ItemEvent) -> Bool) -> Bool { events.withLock { $0.contains(where: matches) } }
}

final class Recorder: ProgressRenderer {
    let recorded: Recorded

    init(_ recorded: Recorded) { self.recorded = recorded }

    func handle(_ event: ItemEvent) { recorded.append(event) }

    func finish() {}
}

/// Plays the curl thread for a job's steps: each task gets an id, and nothing is sent.
final class TasksGoingNowhere: TaskPosting {
    private var nextID = 1

    func task(with request: HTTPRequest, body: any ResponseBodyHandler, options: TransferOptions) -> TaskID {
        defer { nextID += 1 }
        return TaskID(rawValue: nextID)
    }

    func resume(_ id: TaskID) {}

    func cancel(_ id: TaskID) {}
}
