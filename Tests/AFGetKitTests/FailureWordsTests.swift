import Glibc
import XCTest

@testable import AFGetSupport

/// Every reason of the local side (files, part files, checksums, afget's own stops) and every
/// note, as a user reads it, with the code a script reads and the exit status: the words are
/// written once, in the reason's group, and these rows are where they are checked.
final class FailureWordsTests: XCTestCase {
    private typealias Row = (reason: FailureReason, words: String, code: String?, exit: Int32)

    func testEveryLocalFileReason() {
        let rows: [Row] = [
            (
                .file(.cannot(.create, path: "d/f.afpart", errno: EACCES)), "cannot create d/f.afpart: Permission denied",
                "cannot-create", 3
            ),
            (
                .file(.cannot(.setModeOf, path: "f", errno: EPERM)), "cannot set the mode of f: Operation not permitted",
                "cannot-set-mode", 3
            ),
            (.file(.cannot(.write, path: "f", errno: ENOSPC)), "cannot write f: No space left on device", "no-space", 3),
            (
                .file(.cannotMove(path: "f.afpart", to: "f", errno: EISDIR)), "cannot move f.afpart to f: Is a directory",
                "cannot-move", 3
            ),
            (.file(.system(errno: ENOENT)), "No such file or directory", "system", 3),
            (
                .file(.symbolicLink(path: "f.afpart")), "f.afpart is a symbolic link; refusing to write through it",
                "symbolic-link", 3
            ),
            (.file(.notRegular(path: "f.afpart")), "f.afpart is not a regular file", "not-a-file", 3),
            (.file(.existsNotRegular(path: "f")), "f exists and is not a regular file", "not-a-file", 3),
            (.file(.isDirectory(path: "d")), "d is a directory", "is-a-directory", 3),
            (.file(.fileInTheWay(directory: "a/b")), "cannot create directory a/b: a file is in the way", "file-in-the-way", 3),
            (
                .file(.noRoom(path: "f", length: 3 << 30, errno: ENOSPC)),
                "no room for f (3.0 GiB in all): No space left on device", "no-space", 3
            ),
            (
                .file(.tooLargeForFileSystem(path: "f", length: 5 << 30, errno: EFBIG)),
                "f cannot grow to 5.0 GiB: larger than a file on this file system may be (File too large)",
                "too-large-for-file-system", 3
            ),
            (
                .file(.nameTooLong(bytes: 300, most: 255)),
                "the file name is 300 bytes long, more than the 255 a file system allows; choose a shorter name", "name-too-long",
                3
            ),
            (
                .file(.nameNotUTF8),
                "the name is not valid UTF-8, so afget cannot name its files exactly; rename it to continue it", "name-not-utf8",
                3
            ),
            (.file(.noSuchPath), "no such file or directory", "no-such-path", 3),
            (.file(.noSuchFile), "no such file", "no-such-path", 3),
            (
                .file(.unreadableDirectory(errno: EACCES)), "cannot read the directory: Permission denied",
                "cannot-read-directory", 3
            ),
            (.file(.unreadableForChecksum(path: "f")), "cannot read f to check its checksum", "cannot-read-for-checksum", 3),
            (
                .file(.shrank(path: "up", sent: 10, size: 20)), "up shrank while being sent: it ended after 10 of its 20 bytes",
                "file-shrank", 3
            ),
            (
                .file(.unreadableRequestBody(errno: EIO)), "cannot read the request body: Input/output error",
                "cannot-read-request-body", 3
            ),
            (
                .file(.tooFewDescriptors(limit: 64, open: 60, needed: 12)),
                "too few files may be open (ulimit -n 64): 60 are open already and a transfer needs 12 more",
                "too-few-descriptors", 3
            ),
            (
                .file(.lockedByAnother(path: "f.afpart")),
                "another afget is downloading this file (it holds the lock on f.afpart)", "busy", 12
            ),
            (
                .file(.appearedMeanwhile(path: "f.afpart")),
                "another afget is downloading this file (f.afpart appeared meanwhile)", "busy", 12
            ),
            (.file(.exists(path: "f")), "f already exists (--on-exists error)", "exists", 11),
            (
                .file(.appearedWhileDownloaded(path: "f")), "f appeared while it was downloaded; it is left as it is", "appeared",
                11
            ),
        ]
        check(rows)
    }

    func testEveryResumeReason() {
        let changed = ResumeFailure.entityTagChanged(from: "\"a\"", to: "\"b\"")
        let rows: [Row] = [
            (.resume(changed), "the file changed on the server (ETag \"a\" became \"b\")", "entity-changed", 9),
            (
                .resume(.lastModifiedChanged(from: "Mon", to: "Tue")),
                "the file changed on the server (Last-Modified Mon became Tue)",
                "entity-changed", 9
            ),
            (
                .resume(.otherRepresentation(codings: "gzip")),
                "the server sent another representation (Content-Encoding gzip where the part holds identity)", "entity-changed",
                9
            ),
            (
                .resume(.lengthChanged(from: 10, to: 20)),
                "the file changed on the server (its length changed from 10 to 20 bytes)",
                "entity-changed", 9
            ),
            (
                .resume(.nowShorter(than: 500, askedPart: false)),
                "the file changed on the server (it is now shorter than the 500 bytes already here)", "entity-changed", 9
            ),
            (
                .resume(.nowShorter(than: 500, askedPart: true)),
                "the file changed on the server (it is now shorter than the 500 bytes where a part of it was asked for)",
                "entity-changed", 9
            ),
            (
                .resume(.wholeFileWithContentRange("bytes 0-9/10")),
                "an inconsistent response: a 200 (the whole file) with Content-Range \"bytes 0-9/10\"", "cannot-continue", 9
            ),
            (.resume(.noContentRange), "206 response without Content-Range", "cannot-continue", 9),
            (.resume(.malformedContentRange("x")), "malformed Content-Range \"x\"", "cannot-continue", 9),
            (
                .resume(.notTheRangeAsked(contentRange: "bytes 1-9/10", first: 1, last: 4)),
                "Content-Range \"bytes 1-9/10\" is not the range asked for (bytes 1-4)", "cannot-continue", 9
            ),
            (
                .resume(.doesNotContinue(contentRange: "bytes 0-9/10", at: 5)),
                "Content-Range \"bytes 0-9/10\" does not continue at byte 5",
                "cannot-continue", 9
            ),
            (
                .resume(.lengthDisagrees(contentLength: 3, contentRange: "bytes 5-9/10")),
                "Content-Length 3 disagrees with Content-Range \"bytes 5-9/10\"", "cannot-continue", 9
            ),
            (.resume(.ignoresRanges), "the server ignores ranges (it sent the whole file)", "cannot-continue", 9),
            (.resume(.cannotServeTheRest), "the server cannot serve the rest (416)", "cannot-continue", 9),
            (
                .resume(.noSizeToCheck), "the server did not give the file's size, against which a part of it is checked",
                "cannot-continue", 9
            ),
            (.resume(.refusedREST), "the server cannot send a part of a file (it refused REST)", "cannot-continue", 9),
            (.resume(.cannotStartStreamOver("standard output")), "cannot start standard output over", "cannot-continue", 9),
            (
                .resume(.partLarger(part: 1000, remote: 400)),
                "the local part (1000 bytes) is larger than the remote file (400 bytes); use --restart to discard it",
                "cannot-continue", 9
            ),
            (
                .resume(.noResumeData(partPath: "f.afpart")),
                "f.afpart has no resume data, so it cannot be continued (--no-restart)",
                "cannot-continue", 9
            ),
            (
                .resume(.noValidator), "the server gave no ETag or Last-Modified to continue against (--no-restart)",
                "cannot-continue", 9
            ),
            (
                .resume(.unreadableResumeData(path: "f.afresume", errno: EISDIR)), "cannot read f.afresume: Is a directory",
                "cannot-continue", 9
            ),
            (
                .resume(.resumeDataTooLarge(path: "f.afresume")), "f.afresume is not afget resume data: larger than 1 MiB",
                "cannot-continue", 9
            ),
            (
                .resume(.unusableResumeData(path: "f.afresume", why: "no URL")), "f.afresume is not usable resume data: no URL",
                "cannot-continue", 9
            ),
            (
                .resume(.unusableKeptResumeData(partPath: "f.afpart", why: "no URL")),
                "the resume data kept on f.afpart is not usable: no URL", "cannot-continue", 9
            ),
            (
                .resume(
                    .resumeDataOfAnotherURL(
                        path: "f.afresume", url: "http://a/f", resumeCommand: "afget resume --url x f.afresume")),
                "f.afresume is resume data for http://a/f, not this URL; if it is the same file at a new address, "
                    + "continue it with: afget resume --url x f.afresume; or use --restart to discard it", "cannot-continue", 9
            ),
            (
                .resume(.notContinued(.tailDiffers(bytes: 4096))),
                "not continued (-c), the file is left as it is: its last 4096 bytes are not the server's: it is not a part of this file",
                "cannot-continue", 9
            ),
            (
                .resume(.streamCannotGoOn(stream: "standard output", because: changed)),
                "cannot continue standard output: the file changed on the server (ETag \"a\" became \"b\"); "
                    + "what was written there is not written again", "cannot-continue", 9
            ),
            (
                .resume(.startedOverTooOften(because: changed, times: 3)),
                "cannot continue: the file changed on the server (ETag \"a\" became \"b\"), after starting over 3 times",
                "cannot-continue", 9
            ),
            (
                .resume(.restartRefused(because: .ignoresRanges)),
                "cannot continue: the server ignores ranges (it sent the whole file); the part file and resume data are kept "
                    + "(--no-restart): run the same command without --no-restart to start over", "cannot-continue", 9
            ),
        ]
        check(rows)
        XCTAssertTrue(TransferFailure(.resume(changed)).entityChanged)
        XCTAssertFalse(TransferFailure(.resume(.ignoresRanges)).entityChanged, "a server that mishandles ranges")
        XCTAssertFalse(TransferFailure(.resume(.restartRefused(because: changed))).entityChanged, "said, not started over")
    }

    func testEveryChecksumReason() {
        let file = DigestMismatch.file(algorithm: "sha-256", expected: "aa", origin: "SUMS:3", actual: "bb")
        let piece = DigestMismatch.piece(index: 3, first: 30, last: 34, algorithm: "sha-256", expected: "h3", actual: "bad")
        let rows: [Row] = [
            (
                .checksum(.mismatch(file, found: nil, keptIn: nil)), "checksum mismatch: expected sha-256 aa (SUMS:3), got bb",
                "checksum-mismatch", 10
            ),
            (
                .checksum(.mismatch(file, found: nil, keptIn: "f.afpart")),
                "checksum mismatch: expected sha-256 aa (SUMS:3), got bb; the data is kept in f.afpart "
                    + "(run again with the right checksum, or --restart)", "checksum-mismatch", 10
            ),
            (
                .checksum(.mismatch(piece, found: .everyOtherSourceDropped, keptIn: nil)),
                "checksum mismatch: piece 3 (bytes 30-34): expected sha-256 h3, got bad; every other source was dropped",
                "checksum-mismatch", 10
            ),
            (
                .checksum(.mismatch(.piecesDoNotFit(count: 4, length: 10, size: 100), found: nil, keptIn: nil)),
                "checksum mismatch: 4 piece hashes of 10 bytes cannot describe a file of 100 bytes", "checksum-mismatch", 10
            ),
            (
                .checksum(.mismatch(file, found: .noSourceMatches(suspected: 2), keptIn: nil)),
                "checksum mismatch: expected sha-256 aa (SUMS:3), got bb; no source gave bytes that match "
                    + "(the bytes of each of 2 sources were fetched again from the others)", "checksum-mismatch", 10
            ),
            (
                .checksum(.mismatch(file, found: .noSourceMatches(suspected: 1), keptIn: nil)),
                "checksum mismatch: expected sha-256 aa (SUMS:3), got bb; no source gave bytes that match "
                    + "(the bytes of the one source suspected were fetched again from the others)", "checksum-mismatch", 10
            ),
            (
                .checksum(.mismatch(file, found: .noSourceMatches(suspected: 0), keptIn: nil)),
                "checksum mismatch: expected sha-256 aa (SUMS:3), got bb", "checksum-mismatch", 10
            ),
            (
                .checksum(.mismatch(file, found: .refetchFailed(suspect: "http://m/f", because: "HTTP 404"), keptIn: "f.afpart")),
                "checksum mismatch: expected sha-256 aa (SUMS:3), got bb; fetching what http://m/f served from the other "
                    + "sources failed (HTTP 404); the data is kept in f.afpart (run the same command again)", "checksum-mismatch",
                10
            ),
            (
                .checksum(.existingDiffers(file)),
                "exists but does not match: expected sha-256 aa (SUMS:3), got bb; it is left as it is "
                    + "(--on-exists overwrite replaces it)", "checksum-mismatch", 10
            ),
            (
                .checksum(.notInSums(sumsFile: "SHA256SUMS")),
                "SHA256SUMS does not name this file, so it cannot be checked (--require-checksums); not downloaded",
                "checksum-mismatch", 10
            ),
            (
                .checksum(.pieceUnservable(from: 1024)),
                "a piece (bytes from 1024) did not match its hash, and every source that did not serve it was dropped",
                "checksum-mismatch", 10
            ),
        ]
        check(rows)
    }

    func testAfgetsOwnStops() {
        let rows: [Row] = [
            (.stop(.canceled), "canceled", "internal", 1),
            (.stop(.bySignal), "stopped by a signal", "internal", 1),
            (.stop(.whileWaitingForInput), "stopped while waiting for standard input", "internal", 1),
            (.stop(.segmentsUnfinished), "segments ended unfinished", "internal", 1),
            (.stop(.noResponse), "no response", "internal", 1),
            (.stop(.taskManagerStoppedEarly), "the task manager stopped early", "internal", 1),
            (.stop(.cannotAddTransfer(said: "Out of memory")), "cannot add transfer: Out of memory", "internal", 1),
        ]
        check(rows)
    }

    /// Notes put their words around the failure's, in the order they were noted, and keep its
    /// reason, so its code and exit status.
    func testNotesSayMoreAroundTheReason() {
        let full = TransferFailure(.file(.cannot(.write, path: "f.afpart", errno: ENOSPC)))
        let rows: [(failure: TransferFailure, words: String)] = [
            (full.noting(.dataKeptThere), "cannot write f.afpart: No space left on device; the data is kept there"),
            (
                full.noting(.keptUntilRoom(bytes: 1 << 20, path: "f.afpart")),
                "cannot write f.afpart: No space left on device; 1.0 MiB kept in f.afpart: run the same command again once there is room"
            ),
            (
                full.noting(.keptForTheNextRun(path: "f.afpart", .movesIntoPlace)),
                "cannot write f.afpart: No space left on device; the data is kept in f.afpart; run the same command again to move it into place"
            ),
            (
                full.noting(.keptForTheNextRun(path: "f.afpart", .downloadsAgainWithoutResumeData(because: full))),
                "cannot write f.afpart: No space left on device; the data is kept in f.afpart; its resume data could not be written "
                    + "(cannot write f.afpart: No space left on device), so the next run downloads it again"
            ),
            (
                full.noting(.couldNotBeKept(because: full)),
                "cannot write f.afpart: No space left on device; it could not be kept (cannot write f.afpart: No space left on device), "
                    + "so the next run downloads it again"
            ),
            (
                full.noting(.alreadyWritten(bytes: 300, to: "standard output", why: .coded(["gzip", "br"]))),
                "cannot write f.afpart: No space left on device; 300 bytes already went to standard output, and the rest "
                    + "cannot be asked for safely (its body is gzip, br-coded, which a range cannot continue), so it is not "
                    + "tried again (that would write them twice)"
            ),
            (
                full.noting(.alreadyWritten(bytes: 1, to: "p", why: .noModificationTime)),
                "cannot write f.afpart: No space left on device; 1 bytes already went to p, and the rest cannot be asked for "
                    + "safely (the server gave no modification time), so it is not tried again (that would write them twice)"
            ),
            (
                full.noting(.alreadyWritten(bytes: 1, to: "p", why: .scpHasNoRanges)),
                "cannot write f.afpart: No space left on device; 1 bytes already went to p, and the rest cannot be asked for "
                    + "safely (SCP cannot fetch part of a file (sftp:// can)), so it is not tried again (that would write them twice)"
            ),
            (
                full.noting(.keptForTheNextRun(path: "f.afpart", .downloadsAgainWithoutValidator)),
                "cannot write f.afpart: No space left on device; the data is kept in f.afpart; the server sent no ETag or "
                    + "Last-Modified, so the next run downloads it again"
            ),
            (
                TransferFailure(.resume(.ignoresRanges)).noting(.startOverWithRestart),
                "the server ignores ranges (it sent the whole file); use --restart to start over"
            ),
            (
                TransferFailure(.resume(.ignoresRanges)).noting(.at("list.txt:3")).noting(.everySourceFailed(count: 2)),
                "every source failed (2 of them); the last: list.txt:3: the server ignores ranges (it sent the whole file)"
            ),
        ]
        for row in rows {
            XCTAssertEqual(row.failure.message, row.words)
            XCTAssertEqual(row.failure.exitCode, row.failure.reason.failureClass.exitCode)
        }
        let noted = full.noting(.afterAttempts(3))
        XCTAssertEqual(noted.reason, full.reason, "a note keeps the reason")
        XCTAssertEqual(noted.reason.code, "no-space")
        XCTAssertTrue(noted.isOutOfSpace)
    }

    private func check(_ rows: [Row]) {
        for row in rows { assertReason(row.reason, says: row.words, code: row.code, exits: row.exit) }
    }
}
