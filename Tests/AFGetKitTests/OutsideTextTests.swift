@testable import AFGetKit
@testable import AFGetProgress
@testable import AFGetSupport
import Foundation
import XCTest

/// Text from outside afget (a server's header or message, a URL, a list's line, a file's name,
/// an argument), given a control sequence, through every failure and notice that quotes it and
/// every renderer: people see the sequence as text, never the bytes a terminal obeys; JSON
/// carries the text exactly, escaped. No socket: the events are made here.
final class OutsideTextTests: XCTestCase {
    /// Sets the terminal's title, clears the screen (CSI in its one-byte C1 form) and turns the
    /// rest of the line right to left, when obeyed. It holds no `ESC [`: the bar renderer's own
    /// sequences are those, and are taken out before the output is searched.
    private static let hostile = "a\u{1B}]0;owned\u{07}\u{9B}2J\u{202E}b"
    private static let shown = #"a\x1B]0;owned\x07\x9B2J\u202Eb"#

    /// Every failure reason whose words quote outside text, that text hostile.
    private static let reasons: [FailureReason] = {
        let h = hostile
        let file = DigestMismatch.file(algorithm: "sha256", expected: h, origin: h, actual: "00")
        return [
            .connection(.hostNotFound(said: h)),
            .connection(.connectFailed(said: h)),
            .connection(.connectTimeout(said: h)),
            .connection(.curl(code: 56, said: h, failureClass: .network)),
            .connection(.hostGivenUp(host: h, after: .connection(.connectFailed(said: "refused")), again: true)),
            .connection(.sshSessionRefused(said: h)),
            .connection(.proxyUnreachable(proxy: h, said: h)),
            .connection(.proxyRefused(proxy: h, status: 403)),
            .connection(.proxyCredentialsRefused(proxy: h)),
            .connection(.proxyCredentialsMissing(proxy: h)),
            .connection(.tls(host: h, said: h, curlCode: 35)),
            .connection(.certificateNotPinned(host: h)),
            .connection(.sshHostKeyNotPinned(host: h, fingerprint: h, pinned: h)),
            .connection(.sshHostKeyChanged(host: h, fingerprint: h, knownHosts: h)),
            .connection(.sshHostKeyUnknown(host: h, fingerprint: "SHA256:" + h, knownHosts: h)),

            .response(.httpStatus(404, phrase: h)),
            .response(.credentialsRefused(status: 401, phrase: h)),
            .response(.redirectNotFollowed(status: 302, phrase: "Found", location: h)),
            .response(.redirectWithoutLocation(status: 302, phrase: h)),
            .response(.unexpectedStatus(status: 304, phrase: h)),
            .response(.statusNotAccepted(.unexpectedStatus(status: 304, phrase: h))),
            .response(.typeNotAccepted(type: h, accepted: ["application/json"])),
            .response(.waitTooLong(after: .response(.httpStatus(503, phrase: h)), seconds: 9000, retryAfter: h)),
            .response(.redirectToScheme("gopher", target: h)),
            .response(.redirectMalformed(target: h)),
            .response(.redirectToHTTP(target: h)),
            .response(.malformedContentLength(h)),
            .response(.conflictingContentLengths([h, "2"])),
            .response(.notTheWholeFile(.wholeFileWithContentRange(h))),
            .response(.notTheWholeFile(.malformedContentRange(h))),
            .response(.unknownEncoding(h)),
            .response(.undecodable(.notValid(coding: h))),
            .response(.bodyShort(received: 1, expected: 2, said: h)),
            .response(.noSuchFile(said: h)),
            .response(.accessDenied(said: h)),
            .response(.fileNotSent(said: h)),
            .response(.uploadRefused(said: h)),
            .response(.serverDiskFull(said: h)),
            .response(.fileExists(said: h)),
            .response(.loginRefused(said: h)),

            .input(.optionNotKeyValue(h)),
            .input(.unknownOption(h, known: ["out"])),
            .input(.optionBesideURL(h)),
            .input(.notRelative(key: "out", path: h)),
            .input(.sameDestination(earlier: h, later: h)),
            .input(.sameDestinationOtherOptions(earlier: h, later: h)),
            .input(.reportIsList(report: h)),
            .input(.reportIsDownload(report: h, item: h)),
            .input(.reportIsThisItem(report: h)),
            .input(.pathHasControlCharacter(path: h, byte: 0x1B)),
            .input(.workingFileName(h)),
            .input(.notWellFormedXML(h)),
            .input(.notMetalink4(namespace: h)),
            .input(.elementTwice(h)),
            .input(.notACount(what: "<size>", text: h)),
            .input(.priorityOutOfRange(h, lowest: 5)),
            .input(.noFetchableURL([h])),
            .input(.checksumNotAlgorithmAndHex(h)),
            .input(.checksumAlgorithmUnknown(h)),
            .input(.sumsUnreadable(path: h, errno: ENOENT)),
            .input(.sumsTooLarge(path: h, limit: 1 << 20)),
            .input(.tagUnknown(h)),
            .input(.taggedLineMalformed(tag: h)),
            .input(.taggedHashLength(tag: h, digits: 64)),
            .input(.anotherHash(name: h, algorithm: "sha256", line: 1)),
            .input(.unsupportedScheme(h, remoteFiles: true)),
            .input(.malformedURL(h)),
            .input(.itemMalformed(h)),
            .input(.itemJSONInvalid(item: h, value: h, said: h)),
            .input(.itemNamesNoFile(h)),
            .input(.fileFieldsWithoutBody(method: h)),
            .input(.bodyUnrepresentable(h)),
            .input(.headerWithoutColon(firstWord: h)),
            .input(.headerNameNotToken(firstWord: h)),
            .input(.headerLineBreak(name: h)),
            .input(.headerControlCharacter(name: h)),
            .input(.acceptStatusMalformed(h)),
            .input(.acceptTypeMalformed(h)),
            .input(.contentLengthNotCount(h)),
            .input(.bodyFileNotRegular(path: h)),
            .input(.cookieJarNotFile(h)),
            .input(.hostKeyPinMalformed(h)),
            .input(.publicKeyPinMalformed(h)),
            .input(.certificateNotBase64(path: h)),
            .input(.notCertificates(path: h)),

            .file(.cannot(.create, path: h, errno: EACCES)),
            .file(.cannotMove(path: h, to: h, errno: EXDEV)),
            .file(.symbolicLink(path: h)),
            .file(.notRegular(path: h)),
            .file(.existsNotRegular(path: h)),
            .file(.isDirectory(path: h)),
            .file(.fileInTheWay(directory: h)),
            .file(.noRoom(path: h, length: 1, errno: ENOSPC)),
            .file(.tooLargeForFileSystem(path: h, length: 1, errno: EFBIG)),
            .file(.unreadableForChecksum(path: h)),
            .file(.shrank(path: h, sent: 1, size: 2)),
            .file(.lockedByAnother(path: h)),
            .file(.appearedMeanwhile(path: h)),
            .file(.exists(path: h)),
            .file(.appearedWhileDownloaded(path: h)),

            .resume(.entityTagChanged(from: h, to: h)),
            .resume(.lastModifiedChanged(from: h, to: h)),
            .resume(.otherRepresentation(codings: h)),
            .resume(.wholeFileWithContentRange(h)),
            .resume(.malformedContentRange(h)),
            .resume(.notTheRangeAsked(contentRange: h, first: 0, last: 1)),
            .resume(.doesNotContinue(contentRange: h, at: 5)),
            .resume(.lengthDisagrees(contentLength: 3, contentRange: h)),
            .resume(.cannotStartStreamOver(h)),
            .resume(.noResumeData(partPath: h)),
            .resume(.unreadableResumeData(path: h, errno: EACCES)),
            .resume(.resumeDataTooLarge(path: h)),
            .resume(.unusableResumeData(path: h, why: h)),
            .resume(.unusableKeptResumeData(partPath: h, why: h)),
            .resume(.resumeDataOfAnotherURL(path: h, url: h, resumeCommand: h)),
            .resume(.streamCannotGoOn(stream: h, because: .malformedContentRange(h))),
            .resume(.startedOverTooOften(because: .malformedContentRange(h), times: 3)),
            .resume(.restartRefused(because: .malformedContentRange(h))),

            .checksum(.mismatch(file, found: .refetchFailed(suspect: h, because: h), keptIn: h)),
            .checksum(
                .mismatch(
                    .piece(index: 1, first: 0, last: 9, algorithm: "sha256", expected: h, actual: "00"), found: nil,
                    keptIn: nil)),
            .checksum(.existingDiffers(file)),
            .checksum(.notInSums(sumsFile: h)),

            .stop(.cannotAddTransfer(said: h)),
        ]
    }()

    /// Every note whose words quote outside text.
    private static let notes: [FailureNote] = {
        let h = hostile
        return [
            .at(h),
            .alreadyWritten(bytes: 1, to: h, why: .coded([h])),
            .keptForTheNextRun(path: h, .continues),
            .couldNotBeKept(because: TransferFailure(.file(.symbolicLink(path: h)))),
            .keptUntilRoom(bytes: 1, path: h),
            .notSentAgain(method: h),
            .notUsing(url: h),
            .notDownloading(url: h),
        ]
    }()

    private static let info = ItemInfo(id: 0, url: "http://h/f", path: "f")
    private static let hostileInfo = ItemInfo(id: 1, url: "http://h/" + hostile, path: hostile)

    func testEveryFailureQuotingOutsideTextIsShownNotObeyed() throws {
        for reason in Self.reasons {
            let failure = TransferFailure(reason)
            XCTAssertTrue(failure.message.contains(Self.hostile), "the row quotes nothing: \(reason)")
            try assertShownNotObeyed(.failed(Self.info, ItemFailure(item: Self.info.url, failure)), exactly: failure.message)
        }
        for note in Self.notes {
            let failure = TransferFailure(.response(.rangeShort)).noting(note)
            XCTAssertTrue(failure.message.contains(Self.hostile), "the row quotes nothing: \(note)")
            try assertShownNotObeyed(.failed(Self.info, ItemFailure(item: Self.info.url, failure)), exactly: failure.message)
        }
    }

    func testEveryOtherLineQuotingOutsideTextIsShownNotObeyed() throws {
        let h = Self.hostile
        let quiet = TransferFailure(.response(.rangeShort))
        var summary = RunSummary()
        summary.failed = 1
        summary.noteFailure("http://h/\(h): HTTP 404", order: 0)
        summary.sumsFile = h
        summary.notInSums = 1
        summary.hosts = [HostNote(host: h, holds: 1, itemsHeld: 2, givenUp: .connection(.connectFailed(said: h)), notTried: 3)]
        let mismatch = PieceCheck.Mismatch(piece: 1, range: 0..<10, algorithm: .sha256, expected: h, actual: "00")
        let events: [ItemEvent] = [
            .failed(Self.hostileInfo, ItemFailure(item: Self.hostileInfo.url, quiet)),
            .retrying(Self.hostileInfo, attempt: 1, delay: 1, failure: TransferFailure(.response(.httpStatus(503, phrase: h)))),
            .restarting(Self.hostileInfo, because: .malformedContentRange(h)),
            .sourceDropped(Self.hostileInfo, source: "http://m/" + h, reason: h),
            .skipped(Self.hostileInfo, reason: SkipReason(h)),
            .started(Self.hostileInfo, total: 10, offset: 5),
            .started(Self.hostileInfo, total: 10, offset: nil),
            .done(Self.hostileInfo, bytes: 10, transferred: 5, seconds: 1, sha256: nil),
            .notice("afget: " + h),
            .notice("< X-Header: " + h),
            .notice(DownloadNotices.oneConnection(h, because: h)),
            .notice(DownloadNotices.oneConnectionFromHere(h, because: h)),
            .notice(DownloadNotices.connectionsCapped(h, at: 2)),
            .notice(DownloadNotices.wholePartConfirmed(h)),
            .notice(DownloadNotices.fetchingAgain(h, bytes: 1, servedBy: h)),
            .notice(DownloadNotices.culpritFound(h, h, because: h)),
            .notice(DownloadNotices.pieceAgain(h, mismatch)),
            .notice(HostMessages.held(h, seconds: 3, cause: .retryAfter)),
            .notice(HostMessages.takes(h, 2)),
            .notice(HostMessages.givenUp(h, .connection(.connectFailed(said: h)), inARow: 3)),
            .summary(summary),
        ]
        for event in events {
            try assertShownNotObeyed(event)
        }
    }

    /// The lines afget writes itself (usage errors, `afget request`'s interruption, a list's
    /// merge notices) go through the same stream: shown, a line break in a line too, so outside
    /// text cannot start a line of its own; a summary's lines are written as lines.
    func testEveryLineForPeopleIsShownNotObeyed() throws {
        let line = try capture { $0.writeLine("afget: \(Self.hostile)\nafget: done\r") }
        XCTAssertEqual(line, "afget: \(Self.shown)\\x0Aafget: done\\x0D\n")
        let lines = try capture { $0.writeLines(["afget: \(Self.hostile)", "  \(Self.hostile)"]) }
        XCTAssertEqual(lines, "afget: \(Self.shown)\n  \(Self.shown)\n")
    }

    /// `event` through every renderer, in a single download and in a batch: none writes a
    /// control character of the event's text (the bar renderer's own sequences aside), and
    /// each that writes the event says it with the text shown; the log says it always. JSON
    /// carries `exactly` (a failure's message) as it is, escaped.
    private func assertShownNotObeyed(
        _ event: ItemEvent, exactly message: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for batch in [false, true] {
            let log = try capture { LineRenderer(stream: $0, showsSummary: batch).handle(event) }
            let quiet = try capture {
                QuietRenderer(errors: $0, showsRetries: true, showsSummary: batch).handle(event)
            }
            let bars = try capture { stream in
                let renderer = BarRenderer(
                    stream: stream, useColor: false, showsSummary: batch,
                    measure: { TerminalSize(columns: 1000, rows: 50) })
                renderer.handle(event)
                renderer.finish()
            }
            var json = ""
            let jsonPeople = try capture { people in
                json = try capture { JSONRenderer(stream: $0, errors: people).handle(event) }
            }
            let ownSequences = #"\x1B\[[0-9;?]*[A-Za-z]|\r"#
            let drawn = bars.replacingOccurrences(of: ownSequences, with: "", options: .regularExpression)
            for (name, text) in [("line", log), ("quiet", quiet), ("bar", drawn), ("json's stderr", jsonPeople)] {
                let raw = text.unicodeScalars.filter { $0 != "\n" && TerminalText.isUnsafe($0) }
                XCTAssertTrue(raw.isEmpty, "\(name), batch \(batch): \(text.debugDescription)", file: file, line: line)
                XCTAssertTrue(
                    text.isEmpty || text.contains(Self.shown), "\(name), batch \(batch): \(text.debugDescription)", file: file,
                    line: line)
            }
            if !batch {
                XCTAssertTrue(log.contains(Self.shown), "the log says it: \(log.debugDescription)", file: file, line: line)
            }
            XCTAssertFalse(
                json.unicodeScalars.contains { $0 != "\n" && TerminalText.isUnsafe($0) }, json.debugDescription, file: file,
                line: line)
            if let message {
                let object = try XCTUnwrap(
                    JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], file: file, line: line)
                XCTAssertEqual(object["message"] as? String, message, "exactly, escaped", file: file, line: line)
            }
        }
    }

    /// What `body` writes to a stream, read back from the file behind it.
    private func capture(_ body: (AFGetSupport.OutputStream) throws -> Void) throws -> String {
        let path = NSTemporaryDirectory() + "outside-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
        let descriptor = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        try body(AFGetSupport.OutputStream(descriptor: descriptor))
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
