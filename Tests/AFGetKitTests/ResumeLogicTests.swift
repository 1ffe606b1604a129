import AFGetRequest
import AFGetSupport
import AFGetKit
import Foundation
import XCTest

final class ContentRangeTests: XCTestCase {
    func testParsesBothForms() {
        XCTAssertEqual(ContentRange("bytes 100-199/1000"), ContentRange(first: 100, last: 199, total: 1000))
        XCTAssertEqual(ContentRange("bytes 0-0/*"), ContentRange(first: 0, last: 0, total: nil))
        XCTAssertEqual(ContentRange("bytes */1000"), ContentRange(first: nil, last: nil, total: 1000))
        XCTAssertEqual(ContentRange("Bytes  5-9/10 "), ContentRange(first: 5, last: 9, total: 10))
    }

    func testRejectsNonsense() {
        for bad in [
            "", "bytes", "bytes 5-4/10", "bytes 5-10/10", "bytes -1-5/10", "items 0-1/2", "bytes */*",
            "bytes 1-2", "bytes a-b/c", "bytes 0-1/+5",
        ] {
            XCTAssertNil(ContentRange(bad), bad)
        }
    }
}

final class ResumeExpectationTests: XCTestCase {
    let expectation = ResumeExpectation(
        offset: 100, expectedTotal: 1000,
        recorded: EntityValidators(entityTag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"),
        restartsOnFullResponse: true)

    private func head(_ status: Int, _ headers: [(String, String)]) -> ResponseHead {
        ResponseHead(status: status, headers: headers.map { (name: $0.0, value: $0.1) })
    }

    func testMatching206Appends() {
        XCTAssertEqual(
            expectation.verdict(
                for: head(
                    206,
                    [
                        ("Content-Range", "bytes 100-999/1000"), ("ETag", "\"v1\""),
                        ("Content-Length", "900"),
                    ])), .append)
    }

    func testEveryMismatchIsRefused() {
        let cases: [[(String, String)]] = [
            [],
            [("Content-Range", "bytes 101-999/1000")],
            [("Content-Range", "bytes 100-998/1000")],
            [("Content-Range", "bytes 100-999/1000"), ("Content-Length", "10")],
            [("Content-Range", "garbage")],
        ]
        for headers in cases {
            guard case .refuse = expectation.verdict(for: head(206, headers)) else {
                return XCTFail("\(headers) should be refused")
            }
        }
    }

    func testABoundedRangeMustEndWhereAskedOrAtTheFilesEnd() {
        var bounded = expectation
        bounded.end = 400
        XCTAssertEqual(bounded.verdict(for: head(206, [("Content-Range", "bytes 100-399/1000")])), .append)
        XCTAssertEqual(
            bounded.verdict(for: head(206, [("Content-Range", "bytes 100-999/1000")])),
            .refuse(.notTheRangeAsked(contentRange: "bytes 100-999/1000", first: 100, last: 399)),
            "more than was asked is not taken as the range")
        bounded.end = 5000
        XCTAssertEqual(
            bounded.verdict(for: head(206, [("Content-Range", "bytes 100-999/1000")])), .append,
            "a range past the end ends with the file")
    }

    /// Servers that ignore If-Range answer with a part of the new file: every validator the 206
    /// carries must agree, and the representation must be the one the part holds.
    func testA206OfAnotherVersionIsAChange() {
        let range = ("Content-Range", "bytes 100-999/1000")
        let cases: [[(String, String)]] = [
            [range, ("ETag", "\"v2\"")],
            [range, ("Last-Modified", "Thu, 22 Oct 2015 07:28:00 GMT")],
            [range, ("Content-Encoding", "gzip")],
            [("Content-Range", "bytes 100-1009/1010")],
        ]
        for headers in cases {
            guard case .changed = expectation.verdict(for: head(206, headers)) else {
                return XCTFail("\(headers) should be a change")
            }
        }
        XCTAssertEqual(expectation.verdict(for: head(206, [range, ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")])), .append)
        XCTAssertEqual(expectation.verdict(for: head(206, [range, ("Content-Encoding", "identity")])), .append)
    }

    /// A weak ETag, or one with bytes outside visible ASCII, never goes in If-Range, so a server
    /// ignoring If-Range is only caught by comparing it: weakly (RFC 9110 §8.8.3.2, the opaque
    /// tags' bytes, `W/` or not), byte for byte (not as canonically equivalent characters).
    func testEveryEntityTagIsComparedWhetherOrNotItMayBeSent() {
        let modified = "Wed, 21 Oct 2015 07:28:00 GMT"
        let rows: [(recorded: String, answered: String, same: Bool)] = [
            ("W/\"a-1\"", "W/\"b-2\"", false),
            ("W/\"a-1\"", "W/\"a-1\"", true),
            ("W/\"a-1\"", "\"a-1\"", true),
            ("\"a-\u{E9}\"", "\"b-\u{E9}\"", false),
            ("\"a-\u{E9}\"", "\"a-\u{E9}\"", true),
            ("\"a-\u{E9}\"", "\"a-e\u{301}\"", false),
            ("\"a\u{01}\"", "\"a\u{02}\"", false),
        ]
        for row in rows {
            var expecting = expectation
            expecting.recorded = EntityValidators(entityTag: row.recorded, lastModified: modified)
            XCTAssertEqual(expecting.recorded.ifRange, modified, "\(row.recorded) is never sent")
            let answer = head(
                206, [("Content-Range", "bytes 100-999/1000"), ("ETag", row.answered), ("Last-Modified", modified)])
            XCTAssertEqual(
                expecting.verdict(for: answer),
                row.same ? .append : .changed(.entityTagChanged(from: row.recorded, to: row.answered)),
                "\(row.recorded) then \(row.answered)")
        }
    }

    /// A Last-Modified within a second of the response's Date may not go in If-Range (the
    /// strong ETag does), but another one on a 206 is still another version.
    func testALastModifiedTooRecentToSendIsStillCompared() {
        let first = EntityValidators(
            of: head(
                200,
                [
                    ("ETag", "\"v1\""), ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT"),
                    ("Date", "Wed, 21 Oct 2015 07:28:00 GMT"),
                ]))
        XCTAssertEqual(first.ifRange, "\"v1\"")
        XCTAssertFalse(first.lastModifiedIsStrong)
        var expecting = expectation
        expecting.recorded = first
        let later = "Thu, 22 Oct 2015 07:28:00 GMT"
        XCTAssertEqual(
            expecting.verdict(
                for: head(206, [("Content-Range", "bytes 100-999/1000"), ("ETag", "\"v1\""), ("Last-Modified", later)])),
            .changed(.lastModifiedChanged(from: "Wed, 21 Oct 2015 07:28:00 GMT", to: later)))
    }

    /// A 200 is the whole file: one that also carries Content-Range is never written.
    func testA200WithContentRangeIsRefused() {
        guard case .refuse(let reason) = expectation.verdict(for: head(200, [("Content-Range", "bytes 100-999/1000")])) else {
            return XCTFail()
        }
        XCTAssertEqual(reason, .wholeFileWithContentRange("bytes 100-999/1000"))
    }

    func testFullResponseRestartsOrIsRefused() {
        XCTAssertEqual(expectation.verdict(for: head(200, [])), .restart)
        var strict = expectation
        strict.restartsOnFullResponse = false
        guard case .refuse = strict.verdict(for: head(200, [])) else { return XCTFail() }
        XCTAssertEqual(expectation.verdict(for: head(416, [("Content-Range", "bytes */100")])), .ignore)
        XCTAssertEqual(expectation.verdict(for: head(404, [])), .ignore)
    }
}

final class ResumeDataTests: XCTestCase {
    let sample = ResumeData(
        url: "https://example.org/a%20b.iso", bytesReceived: 12345,
        validators: EntityValidators(entityTag: "\"abc\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"),
        tempFileName: "a b.iso.afpart", destination: "dl/a b.iso", expectedLength: 99999)

    func testRoundTripsThroughAnXMLPropertyList() throws {
        let data = sample.propertyList()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("<?xml"), text)
        for key in [
            "NSURLSessionDownloadURL", "NSURLSessionResumeBytesReceived", "NSURLSessionResumeEntityTag",
            "NSURLSessionResumeServerDownloadDate", "NSURLSessionResumeInfoTempFileName",
            "NSURLSessionResumeInfoVersion", "AFGetDestination", "AFGetExpectedLength",
        ] {
            XCTAssertTrue(text.contains("<key>\(key)</key>"), key)
        }
        XCTAssertEqual(try ResumeData(propertyList: data), sample)
    }

    /// Whatever a server puts in its validators and whatever bytes a chosen file name holds come
    /// back exactly from the file, markup characters and control characters alike.
    func testAnyTextRoundTrips() throws {
        let awkward = (1..<32).map { String(UnicodeScalar(UInt8($0))) }.joined() + "\u{7F}<&>]]>\"'\r\n é \u{85}\u{FFFE}"
        var odd = sample
        odd.entityTag = "\"" + awkward + "\""
        odd.lastModified = awkward
        odd.destination = "dl/" + awkward
        odd.tempFileName = awkward + ".afpart"
        XCTAssertEqual(try ResumeData(propertyList: odd.propertyList()), odd)
    }

    /// Validators that may not be sent are kept to be compared: a weak or non-ASCII ETag apart
    /// from the strong one NSURLSession's key names, percent-escaped; a Last-Modified too recent
    /// for If-Range marked so.
    func testValidatorsThatAreOnlyComparedRoundTrip() throws {
        for tag in ["W/\"a-1\"", "\"a-\u{E9}\"", "\"a%\u{01}\"", "W/\"a-e\u{301}\""] {
            var kept = sample
            kept.entityTag = tag
            kept.lastModifiedIsStrong = false
            let text = String(decoding: kept.propertyList(), as: UTF8.self)
            XCTAssertFalse(text.contains("NSURLSessionResumeEntityTag"), text)
            XCTAssertTrue(text.contains("<key>AFGetComparedEntityTag</key>"), text)
            XCTAssertTrue(text.contains("<key>AFGetLastModifiedIsWeak</key>"), text)
            let read = try ResumeData(propertyList: kept.propertyList())
            XCTAssertEqual(read, kept)
            XCTAssertTrue(Array(read.entityTag!.utf8) == Array(tag.utf8), tag)
            XCTAssertEqual(read.validators.ifRange, nil)
        }
    }

    /// The request's own headers come back for `afget resume`; none that may hold a secret is
    /// ever written, and one slipped into the file is not replayed.
    func testRecordsHeadersToReplayButNoSecrets() throws {
        let withHeaders = ResumeData(
            url: sample.url, bytesReceived: 1, validators: sample.validators, tempFileName: sample.tempFileName,
            destination: sample.destination, expectedLength: sample.expectedLength,
            headers: [
                HTTPHeader(name: "X-Trace", value: "abc"), HTTPHeader(name: "Authorization", value: "Bearer t0k"),
                HTTPHeader(name: "X-Api-Key", value: "s3cret"), HTTPHeader(name: "Accept", value: ""),
            ])
        XCTAssertEqual(withHeaders.headers, ["X-Trace: abc", "Accept: "])
        let text = String(decoding: withHeaders.propertyList(), as: UTF8.self)
        XCTAssertFalse(text.contains("t0k") || text.contains("s3cret"), text)
        XCTAssertEqual(try ResumeData(propertyList: withHeaders.propertyList()), withHeaders)

        let planted = text.replacingOccurrences(
            of: "<string>X-Trace: abc</string>",
            with: "<string>X-Trace: abc</string><string>Cookie: id=1</string>")
        XCTAssertEqual(try ResumeData(propertyList: Data(planted.utf8)).headers, ["X-Trace: abc", "Accept: "])
        let broken = text.replacingOccurrences(of: "<string>X-Trace: abc</string>", with: "<string>no colon</string>")
        XCTAssertThrowsError(try ResumeData(propertyList: Data(broken.utf8)))
    }

    /// `afget resume -H "X-Trace: new"` sends the new value instead of the recorded one.
    func testHeadersGivenAgainReplaceRecordedOnes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("a.iso").path
        let recorded = ResumeData(
            url: sample.url, bytesReceived: 1, validators: sample.validators, tempFileName: "a.iso.afpart",
            destination: destination, expectedLength: sample.expectedLength,
            headers: [HTTPHeader(name: "X-Trace", value: "old"), HTTPHeader(name: "Accept", value: "*/*")])
        try ResumeStore(destination: destination).save(recorded)

        let found = ResumeDiscovery.find(
            [directory.path], replacementURL: nil,
            commandHeaders: [HTTPHeader(name: "x-trace", value: "new")])
        XCTAssertEqual(found.failures, [])
        XCTAssertEqual(found.items.map(\.headers), [[HTTPHeader(name: "Accept", value: "*/*")]])
    }

    /// Running out of descriptors is the process's trouble, not the resume data's: a local file
    /// error (exit 3), not unusable resume data (exit 9).
    func testOutOfDescriptorsIsALocalFileErrorNotBadResumeData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = ResumeStore(destination: directory.appendingPathComponent("a.iso").path)
        try store.save(sample)

        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved), 0)
        var lowered = saved
        lowered.rlim_cur = min(saved.rlim_cur, 512)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered), 0)
        var filling: [Int32] = []
        defer {
            filling.forEach { close($0) }
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved)
        }
        while case let descriptor = open("/dev/null", O_RDONLY), descriptor >= 0 { filling.append(descriptor) }
        XCTAssertEqual(errno, EMFILE)

        XCTAssertThrowsError(try store.load()) { error in
            XCTAssertEqual((error as? TransferFailure)?.kind, .localFile, "\(error)")
            XCTAssertEqual((error as? TransferFailure)?.exitCode, 3)
        }
    }

    /// A download named by the server (`-J`) says so, for `afget resume`; others write nothing.
    func testRecordsThatTheServerNamesTheFile() throws {
        XCTAssertFalse(String(decoding: sample.propertyList(), as: UTF8.self).contains("AFGetTakesServerName"))
        var named = sample
        named.takesServerName = true
        let text = String(decoding: named.propertyList(), as: UTF8.self)
        XCTAssertTrue(text.contains("<key>AFGetTakesServerName</key>\n\t<true/>"), text)
        XCTAssertEqual(try ResumeData(propertyList: named.propertyList()), named)
    }

    func testOptionalValidatorsMayBeAbsent() throws {
        var bare = sample
        bare.entityTag = nil
        bare.lastModified = nil
        bare.expectedLength = nil
        XCTAssertEqual(try ResumeData(propertyList: bare.propertyList()), bare)
        XCTAssertNil(bare.validators.ifRange)
    }

    func testRejectsWhatCannotBeTrusted() throws {
        func variant(_ edit: (inout [String: Any]) -> Void) throws -> Data {
            var dictionary = try XCTUnwrap(
                PropertyListSerialization.propertyList(from: sample.propertyList(), format: nil) as? [String: Any])
            edit(&dictionary)
            return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
        }
        let bad: [(String, Data)] = [
            ("not a plist", Data("hello".utf8)),
            ("an array", try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0)),
            ("count as string", try variant { $0["NSURLSessionResumeBytesReceived"] = "12" }),
            ("count as bool", try variant { $0["NSURLSessionResumeBytesReceived"] = true }),
            ("negative count", try variant { $0["NSURLSessionResumeBytesReceived"] = -1 }),
            ("absurd count", try variant { $0["NSURLSessionResumeBytesReceived"] = 1 << 60 }),
            ("more than the file", try variant { $0["AFGetExpectedLength"] = 10 }),
            ("path in temp name", try variant { $0["NSURLSessionResumeInfoTempFileName"] = "../x" }),
            ("newer version", try variant { $0["NSURLSessionResumeInfoVersion"] = 2 }),
            ("file URL", try variant { $0["NSURLSessionDownloadURL"] = "file:///etc/passwd" }),
            ("missing URL", try variant { $0["NSURLSessionDownloadURL"] = nil }),
            ("server naming as string", try variant { $0["AFGetTakesServerName"] = "yes" }),
        ]
        for (name, data) in bad {
            XCTAssertThrowsError(try ResumeData(propertyList: data), name)
        }
    }
}

final class ValidatorAndRetryTests: XCTestCase {
    func testOnlyStrongValidatorsAreUsed() {
        let strong = EntityValidators(
            of: ResponseHead(status: 200, headers: [("ETag", "\"x\""), ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")]))
        XCTAssertEqual(strong.ifRange, "\"x\"")
        let weak = EntityValidators(of: ResponseHead(status: 200, headers: [("ETag", "W/\"x\"")]))
        XCTAssertNil(weak.ifRange)
        let fresh = EntityValidators(
            of: ResponseHead(
                status: 200,
                headers: [
                    ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT"), ("Date", "Wed, 21 Oct 2015 07:28:00 GMT"),
                ]))
        XCTAssertNil(fresh.ifRange, "modified in the same second as the response: not strong")
        let old = EntityValidators(
            of: ResponseHead(
                status: 200,
                headers: [
                    ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT"), ("Date", "Wed, 21 Oct 2015 07:28:01 GMT"),
                ]))
        XCTAssertEqual(old.ifRange, "Wed, 21 Oct 2015 07:28:00 GMT")
        // A tag with a control or non-ASCII character is not an entity tag to rely on: it could
        // not be written into XML resume data, nor sent back byte for byte. Last-Modified is used.
        for bad in ["\"a\u{01}b\"", "\"caf\u{E9}\"", "\"a\"b\"", "\"", "\"a b\""] {
            let odd = EntityValidators(
                of: ResponseHead(
                    status: 200,
                    headers: [
                        ("ETag", bad), ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT"),
                    ]))
            XCTAssertEqual(odd.ifRange, "Wed, 21 Oct 2015 07:28:00 GMT", bad.debugDescription)
        }
        XCTAssertEqual(EntityValidators(of: ResponseHead(status: 200, headers: [("ETag", "\"\"")])).ifRange, "\"\"")
        XCTAssertEqual(
            EntityValidators(of: ResponseHead(status: 200, headers: [("ETag", "\"5f-6a!#~\"")])).ifRange, "\"5f-6a!#~\"")
    }

    func testBackoffDoublesAndIsCapped() {
        let policy = RetryPolicy(maxRetries: 8, baseDelay: 1)
        XCTAssertEqual(
            (1...8).map { policy.decision(afterFailedAttempts: $0, retryAfter: nil, now: 0) },
            [1, 2, 4, 8, 16, 30, 30, 30].map { .retry(after: $0) })
        XCTAssertEqual(policy.decision(afterFailedAttempts: 9, retryAfter: nil, now: 0), .giveUp)
    }

    func testRetryAfterWinsUpToFiveMinutes() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.decision(afterFailedAttempts: 1, retryAfter: "7", now: 0), .retry(after: 7))
        let now: Int64 = 1_445_412_480  // 2015-10-21 07:28:00 UTC
        XCTAssertEqual(
            policy.decision(afterFailedAttempts: 1, retryAfter: "Wed, 21 Oct 2015 07:29:00 GMT", now: now), .retry(after: 60))
        guard case .tooLongToWait = policy.decision(afterFailedAttempts: 1, retryAfter: "301", now: 0) else { return XCTFail() }
        XCTAssertEqual(policy.decision(afterFailedAttempts: 1, retryAfter: "soon", now: 0), .retry(after: 1))
    }

    func testTransientStatuses() {
        XCTAssertEqual([408, 429, 500, 502, 503, 504].filter(RetryPolicy.isTransient(status:)).count, 6)
        XCTAssertEqual([400, 401, 403, 404, 416, 501, 505].filter(RetryPolicy.isTransient(status:)), [])
    }

    /// An API request retries a status only when the server said when (a 429 or 503 with a
    /// Retry-After that can be read); a download every transient one.
    func testWhichStatusesAreRetried() {
        let statuses = [408, 429, 500, 502, 503, 504, 404]
        let download = RetryPolicy()
        XCTAssertEqual(statuses.filter { download.retries(status: $0, retryAfter: nil, now: 0) }, [408, 429, 500, 502, 503, 504])
        let request = RetryPolicy(statuses: .whenTheServerSaysWhen)
        XCTAssertEqual(statuses.filter { request.retries(status: $0, retryAfter: nil, now: 0) }, [])
        XCTAssertEqual(statuses.filter { request.retries(status: $0, retryAfter: "2", now: 0) }, [429, 503])
        XCTAssertEqual(statuses.filter { request.retries(status: $0, retryAfter: "soon", now: 0) }, [])
    }
}
