import AFGetRequest
import AFGetSession
import AFGetSupport
import AFGetKit
import CurlCore
import Foundation
import TestServer
import XCTest

/// The three task kinds, their events and state changes, over real sockets to the test server.
final class TaskManagerTests: XCTestCase {
    var server: TestHTTPServer!
    var manager: TaskManager!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        manager = TaskManager()
    }

    override func tearDown() {
        manager.invalidate()
    }

    private func request(_ path: String, method: String = "GET", body: RequestBody = .none) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try CurlURL(server.url(path)), body: body)
    }

    func testDataTaskCollectsTheBody() async throws {
        let task = manager.dataTask(with: try request("/file/d?size=70000"))
        manager.resume(task.id)
        let events = try await collectEvents(of: task)

        guard case .completed(_, let response) = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(sha256Hex(response.body), TestPayload.sha256(count: 70_000))
        XCTAssertEqual(response.progress.received, 70_000)
        XCTAssertEqual(response.lastModified, Int64(Route.lastModifiedEpoch))
        XCTAssertTrue(events.contains { if case .started(_, let head) = $0 { head.status == 200 } else { false } })
    }

    func testUploadTaskSendsBytesAndFiles() async throws {
        let bytes = TestPayload.bytes(0..<123_456)
        let put = manager.uploadTask(with: try request("/upload", method: "PUT", body: .bytes(bytes)))
        manager.resume(put.id)
        guard case .completed(_, let putResponse) = try await collectEvents(of: put).last else { return XCTFail() }
        XCTAssertEqual(putResponse.head.status, 201)
        XCTAssertEqual(String(decoding: putResponse.body, as: UTF8.self), "123456 \(sha256Hex(bytes))\n")
        XCTAssertEqual(putResponse.progress.sent, 123_456)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        try Data(bytes.prefix(5000)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let post = manager.uploadTask(with: try request("/upload", method: "POST", body: .file(path: file.path)))
        manager.resume(post.id)
        guard case .completed(_, let postResponse) = try await collectEvents(of: post).last else { return XCTFail() }
        XCTAssertEqual(String(decoding: postResponse.body, as: UTF8.self), "5000 \(sha256Hex(bytes.prefix(5000)))\n")
        XCTAssertEqual(server.log.all.map(\.method), ["PUT", "POST"])
    }

    /// A new empty file for a download task to write, closed and removed when the test ends.
    private func temporaryFile() -> (url: URL, sink: FileDescriptorSink) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("download-\(UUID().uuidString)")
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        addTeardownBlock {
            close(descriptor)
            try? FileManager.default.removeItem(at: file)
        }
        return (file, FileDescriptorSink(descriptor: descriptor, name: file.path))
    }

    func testDownloadTaskWritesOnlyASuccessfulBody() async throws {
        let (file, sink) = temporaryFile()

        let missing = manager.downloadTask(with: try request("/status/404"), to: sink)
        manager.resume(missing.id)
        guard case .completed(_, let notFound) = try await collectEvents(of: missing).last else { return XCTFail() }
        XCTAssertEqual(notFound.head.status, 404)
        XCTAssertEqual(try Data(contentsOf: file).count, 0, "an error page is not written")

        let redirected =
            "/redirect/x?to=" + server.url("/file/x?size=50000").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let task = manager.downloadTask(with: try request(redirected), to: sink)
        manager.resume(task.id)
        let events = try await collectEvents(of: task)
        XCTAssertTrue(events.contains { if case .redirected = $0 { true } else { false } }, "\(events)")
        guard case .completed(_, let response) = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(response.finalURL, server.url("/file/x?size=50000"))
        XCTAssertEqual(
            sha256Hex(try Data(contentsOf: file)), TestPayload.sha256(count: 50_000), "the redirect body is not written either")
    }

    func testASegmentSaysHowFarItHasGotAndStopsAtItsEndWhateverTheServerSends() async throws {
        let (file, sink) = temporaryFile()
        // Two chunks of 100 kB a second apart: in between, the segment has taken the first.
        // The range asked for is open; the segment ends at 150 kB, and the rest is not taken.
        let segment = LiveSegment(from: 0, end: 150_000)
        var ranged = try request("/file/x?size=200000&chunk=100000&ms=1000")
        ranged.headers.append(HTTPHeader(name: "Range", value: "bytes=0-"))
        let task = manager.downloadTask(
            with: ranged, to: sink,
            resume: ResumeExpectation(offset: 0, expectedTotal: nil, recorded: EntityValidators(), restartsOnFullResponse: false),
            segment: segment)
        manager.resume(task.id)
        let deadline = ContinuousClock.now + .seconds(20)
        while segment.reached < 100_000 {
            guard ContinuousClock.now < deadline else { return XCTFail("reached only \(segment.reached)") }
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(segment.reached, 100_000)
        let events = try await collectEvents(of: task)
        guard case .completed(_, let response) = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(response.progress.written, 150_000)
        XCTAssertEqual(segment.reached, 150_000)
        XCTAssertEqual(Array(try Data(contentsOf: file)), TestPayload.bytes(0..<150_000))
    }

    func testSuspendAndResumeARunningTask() async throws {
        let task = manager.dataTask(with: try request("/drip/d?size=60000&chunk=10000&ms=50"))
        let id = task.id
        manager.resume(id)
        var seen: [String] = []
        var response: TaskResponse?
        for await event in task.events {
            switch event {
            case .started:
                seen.append("started")
                manager.suspend(id)
            case .suspended:
                seen.append("suspended")
                manager.resume(id)
            case .resumed:
                seen.append("resumed")
            case .completed(_, let finished):
                seen.append("completed")
                response = finished
            case .failed(_, let failure, _):
                XCTFail("\(failure)")
            default:
                continue
            }
            if response != nil { break }
        }
        XCTAssertEqual(seen, ["started", "suspended", "resumed", "completed"])
        XCTAssertEqual(response.map { sha256Hex($0.body) }, TestPayload.sha256(count: 60_000))
    }

    func testCancelEndsATaskThatWouldNeverFinish() async throws {
        let task = manager.dataTask(with: try request("/silent"))
        manager.resume(task.id)
        manager.cancel(task.id)
        let events = try await collectEvents(of: task)
        guard case .canceled = events.last else { return XCTFail("\(events)") }
    }

    func testFailuresAreClassified() async throws {
        let refused = manager.dataTask(with: HTTPRequest(url: try CurlURL("http://127.0.0.1:\(try unusedPort())/")))
        manager.resume(refused.id)
        guard case .failed(_, let failure, _) = try await collectEvents(of: refused).last else { return XCTFail() }
        XCTAssertEqual(failure.kind, .network)

        let bomb = manager.dataTask(with: try request("/headers?count=2100&bytes=10"))
        manager.resume(bomb.id)
        guard case .failed(_, let tooMany, _) = try await collectEvents(of: bomb).last else { return XCTFail() }
        XCTAssertEqual(tooMany.kind, .protocolViolation)
        XCTAssertTrue(tooMany.message.contains("response headers exceed"), tooMany.message)
    }

    func testManyTasksShareOneManager() async throws {
        let tasks = try (0..<6).map { index in
            let task = manager.dataTask(with: try request("/file/m\(index)?size=\(10_000 + index)"))
            manager.resume(task.id)
            return task
        }
        var bodies: [Int] = []
        for task in tasks {
            let events = try await collectEvents(of: task)
            guard case .completed(let id, let response) = events.last, id == task.id else { return XCTFail("\(events)") }
            XCTAssertTrue(events.allSatisfy { $0.taskID == task.id }, "only its own events")
            bodies.append(response.body.count)
        }
        XCTAssertEqual(bodies, (0..<6).map { 10_000 + $0 })
    }

    /// Tasks sharing a gate transfer at most its limit at once; the others wait and start as
    /// places free up, in order. A waiting task that is canceled ends without ever starting
    /// and keeps no place from the rest; a refused one gives its place back.
    func testAGateBoundsTheTasksTransferringAtOnce() async throws {
        let gate = TransferGate(limit: 2)
        let options = TransferOptions(gate: gate)
        let refused = manager.dataTask(
            with: HTTPRequest(url: try CurlURL("http://127.0.0.1:\(try unusedPort())/")), options: options)
        manager.resume(refused.id)
        let tasks = try (0..<5).map { index in
            let task = manager.dataTask(with: try request("/file/g\(index)?size=60000&chunk=10000&ms=20"), options: options)
            manager.resume(task.id)
            return task
        }
        manager.cancel(tasks[4].id)
        guard case .failed = try await collectEvents(of: refused).last else { return XCTFail("refused") }
        for task in tasks.prefix(4) {
            guard case .completed(_, let response) = try await collectEvents(of: task).last else { return XCTFail() }
            XCTAssertEqual(sha256Hex(response.body), TestPayload.sha256(count: 60_000))
        }
        guard case .canceled(_, _, let progress) = try await collectEvents(of: tasks[4]).last else { return XCTFail() }
        XCTAssertEqual(progress.received, 0)
        XCTAssertEqual(server.mostConcurrentResponses, 2)
        XCTAssertEqual(server.log.all.map(\.uri).filter { $0.hasPrefix("/file/g4") }, [], "the canceled task never asked")
        XCTAssertEqual(server.log.all.count, 4)
    }

    /// Waiting tasks start lowest `gateOrder` first, whatever order they were resumed in.
    func testAGateStartsWaitingTasksInTheirOrder() async throws {
        let gate = TransferGate(limit: 1)
        let first = manager.dataTask(
            with: try request("/file/o0?size=60000&chunk=10000&ms=20"), options: TransferOptions(gate: gate))
        manager.resume(first.id)
        var waiting: [SessionTask] = []
        for order in [3, 1, 2] {
            var options = TransferOptions(gate: gate)
            options.gateOrder = order
            let task = manager.dataTask(with: try request("/file/o\(order)?size=10"), options: options)
            manager.resume(task.id)
            waiting.append(task)
        }
        for task in [first] + waiting {
            guard case .completed = try await collectEvents(of: task).last else { return XCTFail() }
        }
        XCTAssertEqual(server.log.all.map { String($0.uri.prefix(8)) }, ["/file/o0", "/file/o1", "/file/o2", "/file/o3"])
    }

    /// An origin given up: its task waiting at the gate, and one created later, end with the
    /// failure given and never ask the server; its transfer that already reached the server goes
    /// on to its end, and the place it frees goes to another origin's task.
    func testAGivenUpOriginStartsNothingMoreWhileItsTransferUnderWayGoesOn() async throws {
        let other = try TestHTTPServer()
        let gate = TransferGate(limit: 1)
        func options(_ order: Int, of server: TestHTTPServer) -> TransferOptions {
            var options = TransferOptions(gate: gate)
            options.gateOrder = order
            options.origin = server.url("")
            return options
        }
        let underWay = manager.dataTask(with: try request("/file/u?size=60000&holdafter=1000"), options: options(0, of: server))
        manager.resume(underWay.id)
        let deadline = ContinuousClock.now + .seconds(20)
        while !server.log.all.contains(where: { $0.uri.hasPrefix("/file/u") }) {
            guard ContinuousClock.now < deadline else { return XCTFail("the first request never arrived") }
            try await Task.sleep(for: .milliseconds(5))
        }
        let waiting = manager.dataTask(with: try request("/file/w?size=10"), options: options(1, of: server))
        manager.resume(waiting.id)
        let otherOrigins = manager.dataTask(
            with: HTTPRequest(url: try CurlURL(other.url("/file/o?size=10"))), options: options(2, of: other))
        manager.resume(otherOrigins.id)

        let failure = TransferFailure(
            .connection(.hostGivenUp(host: server.url(""), after: .connection(.connectTimeout(said: "")), again: false)))
        manager.giveUp(origin: server.url(""), failing: failure)
        let late = manager.dataTask(with: try request("/file/l?size=10"), options: options(3, of: server))
        manager.resume(late.id)
        server.decide("u", .released)

        for task in [waiting, late] {
            guard case .failed(_, let ended, let progress) = try await collectEvents(of: task).last else { return XCTFail() }
            XCTAssertEqual(ended, failure)
            XCTAssertEqual(progress.received, 0)
        }
        guard case .completed(_, let response) = try await collectEvents(of: underWay).last else { return XCTFail() }
        XCTAssertEqual(sha256Hex(response.body), TestPayload.sha256(count: 60_000))
        guard case .completed = try await collectEvents(of: otherOrigins).last else { return XCTFail() }
        XCTAssertEqual(server.log.all.map { String($0.uri.prefix(7)) }, ["/file/u"], "nothing else asked of the given-up origin")
    }

    func testATaskCreatedAfterInvalidationEndsCanceled() async throws {
        manager.invalidate()
        let late = manager.dataTask(with: try request("/file/late?size=10"))
        manager.resume(late.id)
        guard case .canceled = try await collectEvents(of: late).last else { return XCTFail() }
    }

    /// Every event of one task up to its last (completed, failed or canceled), or a failure
    /// after 20 seconds instead of a hang.
    private func collectEvents(of task: SessionTask) async throws -> [TaskEvent] {
        try await withThrowingTaskGroup(of: [TaskEvent]?.self) { group in
            group.addTask {
                var events: [TaskEvent] = []
                for await event in task.events {
                    events.append(event)
                }
                XCTAssertEqual(events.last?.isFinal, true, "the stream ends after the last event")
                return events
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            return try XCTUnwrap(first, "\(task.id) did not finish within 20 s")
        }
    }
}

/// A port on 127.0.0.1 with nothing listening.
func unusedPort() throws -> Int {
    try TestHTTPServer().port
}
