@testable import AFGetKit
@testable import AFGetRequest
@testable import AFGetSupport
import Glibc
import XCTest

/// The rules of what follows an attempt (DESIGN.md §5 and §8), one row each, without a socket
/// or a file: what the download knew, how the attempt ended, and what the machine does next.
final class DownloadMachineTests: XCTestCase {
    private static let etag = "\"v1\""
    private static let known = EntityValidators(entityTag: etag)

    private func head(_ status: Int, _ headers: [(String, String)] = []) -> ResponseHead {
        ResponseHead(status: status, headers: headers.map { (name: $0.0, value: $0.1) })
    }

    private func machine(
        _ rules: DownloadMachine.Rules = .init(), validators: EntityValidators = known, total: Int64? = 1000
    ) -> DownloadMachine {
        DownloadMachine(rules: rules, validators: validators, expectedTotal: total)
    }

    private static let reset = TransferFailure(
        .connection(.curl(code: 56, said: "Connection reset by peer", failureClass: .network)), transient: true)
    private static let changedReason = ResumeFailure.entityTagChanged(from: "\"v1\"", to: "\"v2\"")
    private static let changed = TransferFailure(.resume(changedReason))

    /// The failure an action ends the item with, as a user reads it.
    private static func words(_ action: DownloadMachine.Action) -> String? {
        if case .fail(let failure, _) = action { failure.message } else { nil }
    }

    /// A whole response: finished when the data holds exactly the file's length, continued
    /// when it ended early, thrown away when it overran.
    func testACompletedResponseIsCheckedAgainstTheFilesLength() {
        let rows: [(status: Int, reached: Int64, size: Int64, expected: DownloadMachine.Action, why: String)] = [
            (200, 1000, 1000, .finish(), "the whole file"),
            (206, 1000, 1000, .finish(), "the rest of a continued file"),
            (
                200, 600, 600,
                .retry(TransferFailure(.response(.bodyShort(received: 600, expected: 1000)), transient: true), retryAfter: nil),
                "short: continued"
            ),
            (
                200, 1200, 1200,
                .fail(TransferFailure(.response(.bodyLong(received: 1200, expected: 1000)), discardsData: true)),
                "long: worthless"
            ),
        ]
        for row in rows {
            var machine = machine()
            XCTAssertEqual(
                machine.attemptCompleted(head(row.status), reached: row.reached, size: row.size), row.expected, row.why)
            XCTAssertEqual(machine.offset, row.reached, row.why)
        }
        var unknownLength = machine(total: nil)
        XCTAssertEqual(unknownLength.attemptCompleted(head(200), reached: 77, size: 77), .finish(), "no length to check")
    }

    /// Statuses: a 304 keeps the file only for a conditional request; 408, 429 and 5xx but 501
    /// and 505 are retried (Retry-After passed on), other errors end the item.
    func testStatusesAreRetriedOrEndTheItem() {
        var conditional = machine(.init(isConditional: true))
        XCTAssertEqual(conditional.attemptCompleted(head(304), reached: 0, size: 0), .keepAsNotModified)
        // `--on-exists update` with the file's size: a 304 asks the server's length, which keeps
        // the file when it is the same (or not said) and replaces it when it differs.
        var updating = machine(.init(isConditional: true, updatedSize: 2500))
        XCTAssertEqual(
            updating.attemptCompleted(head(304, [("Content-Length", "0")]), reached: 0, size: 0),
            .confirmSameSize(size: 2500))
        XCTAssertEqual(updating.unchangedLength(2500), .keepAsNotModified)
        XCTAssertEqual(updating.unchangedLength(nil), .keepAsNotModified)
        XCTAssertEqual(updating.unchangedLength(6000), .replaceOtherSize(size: 2500, serverSize: 6000))
        for status in [408, 429, 500, 502, 503, 504] {
            var machine = machine()
            guard case .retry(let failure, nil) = machine.attemptCompleted(head(status), reached: 0, size: 0) else {
                return XCTFail("\(status) is transient")
            }
            XCTAssertEqual(failure.kind, .httpStatus, "\(status)")
        }
        var busy = machine()
        XCTAssertEqual(
            busy.attemptCompleted(head(503, [("Retry-After", "7")]), reached: 0, size: 0),
            .retry(head(503).failure(sentCredentials: false), retryAfter: "7"))
        for status in [304, 400, 401, 403, 404, 410, 501, 505] {
            var machine = machine()
            XCTAssertEqual(
                machine.attemptCompleted(head(status), reached: 0, size: 0),
                .fail(head(status).failure(sentCredentials: false)), "\(status)")
        }
        var refused = machine(.init(sendsCredentials: true))
        XCTAssertEqual(
            refused.attemptCompleted(head(401), reached: 0, size: 0), .fail(head(401).failure(sentCredentials: true)))
        XCTAssertEqual(head(401).failure(sentCredentials: true).kind, .authentication)
    }

    /// A 416 to a continue from 1000: the part is the whole file when the 416's total says so
    /// and its validators agree, or when a HEAD request confirms it; a file that shrank starts over when its validator
    /// changed and otherwise fails; any other 416 starts over.
    func testA416ToAContinue() {
        let rows: [(headers: [(String, String)], expected: DownloadMachine.Action, why: String)] = [
            ([("Content-Range", "bytes */1000")], .finish(wholePart: true), "the total is the part's size"),
            (
                [("Content-Range", "bytes */1000"), ("ETag", "\"v2\"")],
                .startOver(because: .entityTagChanged(from: "\"v1\"", to: "\"v2\"")),
                "the part's size, but another version (an FTP file replaced by one as long)"
            ),
            ([], .confirmWholePart(size: 1000), "no total: a HEAD request decides"),
            (
                [("Content-Range", "bytes */400"), ("ETag", "\"v2\"")],
                .startOver(because: .entityTagChanged(from: "\"v1\"", to: "\"v2\"")), "shrank, changed"
            ),
            (
                [("Content-Range", "bytes */400")],
                .fail(TransferFailure(.resume(.partLarger(part: 1000, remote: 400))), afterRetries: false),
                "larger than the server's, same validator"
            ),
            ([("Content-Range", "bytes */5000")], .startOver(because: .cannotServeTheRest), "grew"),
        ]
        for row in rows {
            var machine = machine()
            XCTAssertEqual(machine.attemptCompleted(head(416, row.headers), reached: 1000, size: 1000), row.expected, row.why)
        }
        var confirmed = machine()
        _ = confirmed.attemptCompleted(head(416), reached: 1000, size: 1000)
        XCTAssertEqual(confirmed.wholePart(confirmed: true), .finish(wholePart: true, confirmedByHead: true))
        XCTAssertEqual(confirmed.wholePart(confirmed: false), .startOver(because: .cannotServeTheRest))
        var unknown = machine(total: 2000)
        XCTAssertEqual(
            unknown.attemptCompleted(head(416), reached: 1000, size: 1000),
            .startOver(because: .cannotServeTheRest), "no total and not the recorded length")
        var empty = machine(.init(splits: true), total: nil)
        XCTAssertEqual(
            empty.attemptCompleted(head(416, [("Content-Range", "bytes */0")]), reached: 0, size: 0), .finish(),
            "an empty file asked for with -s")
    }

    /// A continue the server cannot serve as asked (another version, an inconsistent 206, a
    /// 200): start over, unless --no-restart (exit 9, everything kept), a stream, or three
    /// restarts already.
    func testAResumeConflictStartsOverUnlessRefused() {
        var machine = machine()
        XCTAssertEqual(machine.attemptFailed(Self.changed, reached: 500), .startOver(because: Self.changedReason))
        machine.startedOver()
        XCTAssertEqual(machine.offset, 0)
        XCTAssertNil(machine.validators.ifRange, "what was known is of the old file")
        XCTAssertNil(machine.expectedTotal)

        var refusing = self.machine(.init(refusesRestart: true))
        let refused = refusing.attemptFailed(Self.changed, reached: 500)
        XCTAssertEqual(
            refused, .fail(TransferFailure(.resume(.restartRefused(because: Self.changedReason))), afterRetries: false))
        XCTAssertEqual(
            Self.words(refused),
            "cannot continue: \(Self.changed.message); the part file and resume data are kept "
                + "(--no-restart): run the same command without --no-restart to start over")

        var rewriting = self.machine()
        for _ in 0..<DownloadMachine.mostRestarts {
            XCTAssertEqual(rewriting.attemptFailed(Self.changed, reached: 10), .startOver(because: Self.changedReason))
            rewriting.startedOver()
        }
        XCTAssertEqual(
            Self.words(rewriting.attemptFailed(Self.changed, reached: 10)),
            "cannot continue: \(Self.changed.message), after starting over 3 times", "a server that keeps rewriting the file")
    }

    /// Transient failures are retried from where the data reaches; others end the item.
    func testFailuresAreRetriedFromWhereTheDataReaches() {
        var machine = machine()
        XCTAssertEqual(machine.attemptFailed(Self.reset, reached: 700), .retry(Self.reset, retryAfter: nil))
        XCTAssertEqual(machine.offset, 700)
        let tls = TransferFailure(.connection(.tls(host: "h", said: "certificate verify failed", curlCode: 60)))
        XCTAssertEqual(machine.attemptFailed(tls, reached: 700), .fail(tls))
        let full = fileFailure(.write, "f", errno: ENOSPC)
        XCTAssertEqual(machine.attemptFailed(full, reached: 700), .fail(full))
    }

    /// Standard output cannot take back what it was given: retried before its first byte,
    /// continued from where it is only with a validator, never started over; a reader that
    /// went away ends the run.
    func testAStreamIsNeverWrittenTwice() {
        let stdout = DownloadMachine.Rules(stream: "standard output")
        var early = machine(stdout, validators: EntityValidators())
        XCTAssertEqual(early.attemptFailed(Self.reset, reached: 0), .retry(Self.reset, retryAfter: nil), "nothing went out yet")
        var pinned = machine(stdout)
        XCTAssertEqual(pinned.attemptFailed(Self.reset, reached: 300), .retry(Self.reset, retryAfter: nil), "by If-Range")
        var bare = machine(stdout, validators: EntityValidators())
        let notAgain = bare.attemptFailed(Self.reset, reached: 300)
        XCTAssertEqual(
            Self.words(notAgain),
            "Connection reset by peer; 300 bytes already went to standard output, and the rest cannot be asked "
                + "for safely (the server sent no ETag or Last-Modified), so it is not tried again (that would write them twice)")
        guard case .fail(let failure, afterRetries: false) = notAgain else { return XCTFail("\(notAgain)") }
        XCTAssertEqual(failure.exitCode, 4)
        XCTAssertFalse(failure.isTransient)
        var whole = machine(stdout)
        XCTAssertEqual(
            whole.attemptFailed(Self.changed, reached: 300),
            .fail(
                TransferFailure(.resume(.streamCannotGoOn(stream: "standard output", because: Self.changedReason))),
                afterRetries: false))
        XCTAssertEqual(
            Self.words(whole.attemptFailed(Self.changed, reached: 300)),
            "cannot continue standard output: \(Self.changed.message); what was written there is not written again")
        var closed = machine(stdout)
        XCTAssertEqual(
            closed.attemptFailed(fileFailure(.write, "standard output", errno: EPIPE), reached: 300), .outputClosed)
        var file = machine()
        XCTAssertEqual(
            file.attemptFailed(fileFailure(.write, "f", errno: EPIPE), reached: 300),
            .fail(fileFailure(.write, "f", errno: EPIPE)), "only a stream's reader can go away")
    }

    // MARK: Splitting (-s)

    /// `-s` with a smallest segment of 100 bytes: files over 400 bytes are split.
    private static let split = DownloadMachine.Rules(splits: true, minimumSplitSize: 100)
    private static let firstRange = [("Content-Range", "bytes 0-399/1000"), ("ETag", etag)]

    /// A response's body starts: with what the machine knew of the file (validators and length,
    /// learnt from this head) and whether the request asked a first range, it hands the task
    /// over to segments, or goes on with one connection saying why (a small file only with -v).
    func testAResponseHandsOverToSegmentsOrGoesOnOneConnection() {
        typealias Refusal = DownloadMachine.SplitRefusal
        let rows:
            [(
                rules: DownloadMachine.Rules, validators: EntityValidators, total: Int64?, head: ResponseHead, askedRange: Bool,
                expected: DownloadMachine.SplitAction, why: String
            )] = [
                (Self.split, Self.known, 1000, head(206, Self.firstRange), true, .handOver, "a validator and a known length"),
                (
                    Self.split, Self.known, 1000, head(200, [("ETag", Self.etag), ("Accept-Ranges", "bytes")]), true,
                    .oneConnection(Refusal("the server ignores ranges (it sent the whole file)")), "a 200 to a ranged request"
                ),
                (
                    Self.split, EntityValidators(), 1000, head(206, [("Content-Range", "bytes 0-399/1000")]), true,
                    .oneConnection(Refusal("no ETag or Last-Modified to check ranges against")), "no validator"
                ),
                (
                    Self.split, Self.known, nil, head(206, [("Content-Range", "bytes 0-399/*"), ("ETag", Self.etag)]), true,
                    .oneConnection(Refusal("the length is unknown")), "unknown length"
                ),
                (
                    DownloadMachine.Rules(isConditional: true, splits: true), Self.known, 1000,
                    head(200, [("Accept-Ranges", "bytes")]),
                    false, .oneConnection(Refusal("the request is conditional (--on-exists update)")), "--on-exists update"
                ),
                (
                    DownloadMachine.Rules(stream: "standard output", splits: true), Self.known, 1000,
                    head(200, [("Accept-Ranges", "bytes")]), false,
                    .oneConnection(Refusal("standard output is written in order")), "-o -"
                ),
                (
                    DownloadMachine.Rules(splits: true, fetchesWholeFilesOnly: true), Self.known, 1000, head(200), false,
                    .oneConnection(Refusal("SCP cannot fetch part of a file (sftp:// can)")), "scp://"
                ),
                (
                    Self.split, Self.known, 300, head(206, [("Content-Range", "bytes 0-299/300"), ("ETag", Self.etag)]), true,
                    .oneConnection(Refusal("too small to split", isWorthSaying: false)), "too small: said with -v only"
                ),
                (
                    Self.split, Self.known, 1000, head(200, [("ETag", Self.etag)]), false,
                    .oneConnection(Refusal("the server does not accept ranges")), "a 200 without Accept-Ranges, no range asked"
                ),
                (DownloadMachine.Rules(), Self.known, 1000, head(200), false, .goOn, "-s 1: nothing to split or say"),
            ]
        for row in rows {
            var machine = machine(row.rules, validators: row.validators, total: row.total)
            XCTAssertEqual(machine.responseStarted(row.head, base: 0, askedRange: row.askedRange), row.expected, row.why)
            switch row.expected {
            case .oneConnection(let refusal):
                XCTAssertEqual(machine.splitting, .refused(refusal), row.why)
                XCTAssertNil(machine.firstRangeEnd(from: 0), "\(row.why): no first range asked again")
                XCTAssertEqual(
                    machine.responseStarted(row.head, base: 0, askedRange: false), .goOn,
                    "\(row.why): a retry's response does not say it again")
            case .handOver:
                XCTAssertEqual(machine.splitting, .possible, row.why)
            case .goOn:
                XCTAssertEqual(machine.splitting, .notAsked, row.why)
            }
        }
    }

    /// Whether an attempt asks a first range: with -s, up to the smallest file split (four
    /// segments), unless how the download was asked for cannot be split.
    func testAFirstRangeIsAskedOnlyWhenTheFileMayBeSplit() {
        let rows: [(rules: DownloadMachine.Rules, expected: Int64?, why: String)] = [
            (Self.split, 1400, "from 1000, four segments of 100 bytes"),
            (DownloadMachine.Rules(), nil, "-s 1"),
            (DownloadMachine.Rules(stream: "standard output", splits: true), nil, "-o -"),
            (DownloadMachine.Rules(isConditional: true, splits: true), nil, "--on-exists update"),
            (DownloadMachine.Rules(splits: true, fetchesWholeFilesOnly: true), nil, "scp://"),
        ]
        for row in rows {
            XCTAssertEqual(machine(row.rules).firstRangeEnd(from: 1000), row.expected, row.why)
        }
        XCTAssertEqual(
            machine(DownloadMachine.Rules(splits: true)).firstRangeEnd(from: 0), 4 << 20, "the default: 1 MiB segments")
    }

    /// A first range answered with another range (shorter, or of an unknown total) wrote
    /// nothing: one connection fetches the file from where the attempt asked, and nothing is
    /// split again. Another version of the file is not the split's matter: it starts over.
    func testAFirstRangeAnsweredWithAnotherRangeFallsBackToOneConnection() {
        let other = TransferFailure(.resume(.notTheRangeAsked(contentRange: "bytes 0-99/1000", first: 0, last: 399)))
        var machine = machine(Self.split)
        XCTAssertEqual(machine.firstRangeFailed(other, from: 0), .fallBack(because: other.message, segmentsBegan: false))
        XCTAssertEqual(machine.offset, 0)
        XCTAssertEqual(machine.splitting, .refused(DownloadMachine.SplitRefusal(other.message)))
        XCTAssertNil(machine.firstRangeEnd(from: 0), "one connection")
        XCTAssertEqual(
            machine.responseStarted(head(200, [("ETag", Self.etag), ("Accept-Ranges", "bytes")]), base: 0, askedRange: false),
            .goOn, "the fall-back said why: the one connection's response goes on without saying it again")

        var changed = self.machine(Self.split)
        XCTAssertNil(changed.firstRangeFailed(Self.changed, from: 0), "another version")
        XCTAssertNil(changed.firstRangeFailed(Self.reset, from: 0), "a failure like any other attempt's")
        XCTAssertEqual(changed.splitting, .possible)
    }

    /// The segments could not go on (a range answered with the whole file): one connection
    /// takes the rest from the bytes held without a gap, and the job never splits again.
    func testSegmentsThatFellBackGoOnOneConnectionFromTheGaplessPrefix() {
        let whole = "the server ignores ranges (it sent the whole file)"
        var machine = machine(Self.split)
        XCTAssertEqual(machine.segmentsFellBack(at: 4096, because: whole), .fallBack(because: whole, segmentsBegan: true))
        XCTAssertEqual(machine.offset, 4096)
        XCTAssertEqual(machine.splitting, .refused(DownloadMachine.SplitRefusal(whole)))
        XCTAssertNil(machine.firstRangeEnd(from: 4096), "never split again")
        XCTAssertEqual(
            machine.responseStarted(
                head(206, [("Content-Range", "bytes 4096-999/1000"), ("ETag", Self.etag)]), base: 4096, askedRange: false),
            .goOn, "said once, by the fall-back")
    }

    /// A first range that arrived whole when the file could not be split: the next attempt goes
    /// on from its end when the file is longer; otherwise the response is judged as a whole.
    func testACompletedFirstRangeGoesOnFromItsEnd() {
        let rows: [(total: Int64?, status: Int, reached: Int64, expected: DownloadMachine.Action?, why: String)] = [
            (1000, 206, 400, .attempt, "shorter than the file: the next attempt from 400"),
            (400, 206, 400, nil, "the range was the whole file"),
            (1000, 206, 300, nil, "ended before its end: judged as a short body"),
            (nil, 206, 400, nil, "no length to go on to"),
            (1000, 200, 400, nil, "not a range"),
        ]
        for row in rows {
            // No validator to check segments against: the first range's response was not split.
            var machine = machine(Self.split, validators: EntityValidators(), total: row.total)
            guard case .oneConnection = machine.responseStarted(head(row.status), base: 0, askedRange: true) else {
                return XCTFail("\(row.why): not split")
            }
            XCTAssertEqual(machine.firstRangeCompleted(head(row.status), reached: row.reached, end: 400), row.expected, row.why)
            if row.expected == .attempt { XCTAssertEqual(machine.offset, 400, row.why) }
        }
    }
}
