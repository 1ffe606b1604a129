import AFGetRequest
import AFGetSupport
import FoundationEssentials
import XCTest

@testable import AFGetKit

/// The pure parts of an upload to S3, without a socket: how a file is cut into parts, its
/// record's round trip and what makes it untrusted, the multipart answers read through
/// libxml2, and the URLs its requests go to.
final class S3UploadPlanTests: XCTestCase {
    private let mebibyte: Int64 = 1 << 20

    func testPartPlansAsATable() throws {
        // (size, threshold, part size) → (multipart, part size, count, last part's length)
        let rows: [(Int64, Int64, Int64, Bool, Int64, Int, Int64)] = [
            (0, 64 * mebibyte, 16 * mebibyte, false, 0, 1, 0),
            (63 * mebibyte, 64 * mebibyte, 16 * mebibyte, false, 0, 1, 63 * mebibyte),
            (64 * mebibyte, 64 * mebibyte, 16 * mebibyte, true, 16 * mebibyte, 4, 16 * mebibyte),
            (64 * mebibyte + 1, 64 * mebibyte, 16 * mebibyte, true, 16 * mebibyte, 5, 1),
            (21 * mebibyte, 10 * mebibyte, 5 * mebibyte, true, 5 * mebibyte, 5, mebibyte),
            // 10 000 parts of 16 MiB hold 156.25 GiB; beyond, parts grow to whole MiB.
            (10_000 * 16 * mebibyte, 64 * mebibyte, 16 * mebibyte, true, 16 * mebibyte, 10_000, 16 * mebibyte),
            (10_000 * 16 * mebibyte + 1, 64 * mebibyte, 16 * mebibyte, true, 17 * mebibyte, 9_412, 13 * mebibyte + 1),
            (1 << 40, 64 * mebibyte, 5 * mebibyte, true, 105 * mebibyte, 9_987, 46 * mebibyte),
            // A threshold below the part size: one part, a multipart upload still.
            (6 * mebibyte, 5 * mebibyte, 16 * mebibyte, true, 16 * mebibyte, 1, 6 * mebibyte),
        ]
        for (size, threshold, partSize, multipart, expectedPartSize, count, last) in rows {
            let plan = try S3PartPlan(size: size, threshold: threshold, partSize: partSize)
            let row = "size \(size), threshold \(threshold), part size \(partSize)"
            XCTAssertEqual(plan.isMultipart, multipart, row)
            XCTAssertEqual(plan.partSize, expectedPartSize, row)
            XCTAssertEqual(plan.count, count, row)
            XCTAssertLessThanOrEqual(plan.count, 10_000, row)
            XCTAssertEqual(plan.part(plan.count).length, last, row)
            XCTAssertEqual(plan.part(plan.count).offset + last, size, "the parts end at the file's end: \(row)")
            if plan.count > 1 {
                XCTAssertEqual(plan.part(2).offset, plan.part(1).length, "no gap, no overlap: \(row)")
            }
        }
        XCTAssertEqual(
            try S3PartPlan(size: 12, threshold: 10, partSize: 5 * mebibyte).parts.map(\.number), [1],
            "numbered from 1")
        XCTAssertThrowsError(try S3PartPlan(size: 10_000 * (5 << 30) + 1)) { error in
            XCTAssertEqual((error as? TransferFailure)?.reason.code, "s3-object-too-large")
            XCTAssertEqual((error as? TransferFailure)?.exitCode, 2)
        }
    }

    private func record() -> S3UploadRecord {
        var record = S3UploadRecord(
            url: "s3://bkt/dir/big file.bin", endpoint: "http://127.0.0.1:9000/", uploadID: "a/b+c=",
            source: "/home/u/big file.bin",
            identity: SourceFileIdentity(size: 21 * mebibyte, modified: 1_700_000_000_123_456_789, inode: UInt64.max - 3),
            partSize: 5 * mebibyte)
        record.partSent(2, .init(entityTag: "\"bb\"", sha256: "Yn1/l7u="))
        record.partSent(1, .init(entityTag: "\"aa\"", sha256: "SJfU+2Zs="))
        return record
    }

    func testARecordReadsBackAsItWasAndHoldsNoSecret() throws {
        let written = record()
        let text = String(decoding: written.propertyList(), as: UTF8.self)
        XCTAssertEqual(try S3UploadRecord(propertyList: written.propertyList()), written)
        XCTAssertTrue(text.contains("<key>NSURLSessionResumeInfoVersion</key>"), text)
        XCTAssertTrue(text.contains("<key>AFGetUploadID</key>"), text)
        for secret in ["Secret", "Authorization", "token", "Token"] {
            XCTAssertFalse(text.contains(secret), "no credential is recorded: \(text)")
        }
    }

    func testUnusableRecordsSayWhy() throws {
        let good = String(decoding: record().propertyList(), as: UTF8.self)
        let rows: [(String, String, String)] = [
            ("<integer>1</integer>\n\t\t\t<key>sha256</key>", "<integer>0</integer>\n\t\t\t<key>sha256</key>", "AFGetParts"),
            ("<string>s3://bkt/dir/big file.bin</string>", "<string>https://x/y</string>", "AFGetUploadURL"),
            ("<string>/home/u/big file.bin</string>", "<string>big file.bin</string>", "absolute"),
            ("<integer>5242880</integer>", "<integer>1024</integer>", "AFGetPartSize"),
            (
                "<key>NSURLSessionResumeInfoVersion</key>\n\t<integer>1</integer>",
                "<key>NSURLSessionResumeInfoVersion</key>\n\t<integer>2</integer>", "newer"
            ),
            ("<integer>2</integer>\n\t\t\t<key>sha256</key>", "<integer>1</integer>\n\t\t\t<key>sha256</key>", "twice"),
        ]
        for (from, to, said) in rows {
            XCTAssertTrue(good.contains(from), "fixture: \(from)")
            let bad = good.replacingOccurrences(of: from, with: to)
            XCTAssertThrowsError(try S3UploadRecord(propertyList: Data(bad.utf8)), said) { error in
                XCTAssertTrue("\(error)".contains(said), "\(error) should say \(said)")
            }
        }
        XCTAssertThrowsError(try S3UploadRecord(propertyList: Data("not a plist".utf8)))
    }

    func testOnlyPartsTheStoreListsAlikeAreTrusted() throws {
        let plan = try S3PartPlan(size: 21 * mebibyte, threshold: 10 * mebibyte, partSize: 5 * mebibyte)
        var kept = record()
        kept.partSent(5, .init(entityTag: "\"ee\"", sha256: "x"))
        kept.partSent(3, .init(entityTag: "\"cc\"", sha256: "x"))
        let dropped = kept.trust(
            listed: [
                ListedPart(number: 1, entityTag: "aa", size: 5 * mebibyte),  // quotes aside, the same
                ListedPart(number: 2, entityTag: "\"other\"", size: 5 * mebibyte),  // other bytes
                ListedPart(number: 3, entityTag: "\"cc\"", size: 4 * mebibyte),  // another length
                ListedPart(number: 4, entityTag: "\"dd\"", size: 5 * mebibyte),  // never recorded
                ListedPart(number: 5, entityTag: "\"ee\"", size: mebibyte),  // the last, shorter
            ], plan: plan)
        XCTAssertEqual(dropped, [2, 3])
        XCTAssertEqual(kept.parts.keys.sorted(), [1, 5])
        XCTAssertEqual(kept.remaining(of: plan), [2, 3, 4], "a part the record lacks is sent, listed or not")

        var lost = record()
        XCTAssertEqual(lost.trust(listed: [], plan: plan), [1, 2], "a store that lost every part: all again")
        XCTAssertEqual(lost.remaining(of: plan), [1, 2, 3, 4, 5])
    }

    func testARecordFitsOnlyTheFileAsItWasCut() throws {
        let record = record()
        let plan = try S3PartPlan(size: 21 * mebibyte, threshold: 10 * mebibyte, partSize: 5 * mebibyte)
        XCTAssertTrue(record.fits(record.identity, plan))
        let identity = record.identity
        for changed in [
            SourceFileIdentity(size: identity.size, modified: identity.modified + 1, inode: identity.inode),
            SourceFileIdentity(size: identity.size, modified: identity.modified, inode: 7),
        ] {
            XCTAssertFalse(record.fits(changed, plan), "\(changed)")
        }
        let recut = try S3PartPlan(size: 21 * mebibyte, threshold: 10 * mebibyte, partSize: 6 * mebibyte)
        XCTAssertFalse(record.fits(identity, recut), "another part size: parts of other bounds")
        XCTAssertFalse(record.fits(identity, try S3PartPlan(size: 21 * mebibyte)), "now one PUT")
    }

    func testMultipartAnswersAsS3AndMotoWriteThem() throws {
        let namespace = #"xmlns="http://s3.amazonaws.com/doc/2006-03-01/""#
        XCTAssertEqual(
            MultipartAnswers.uploadID(
                Array(
                    "<InitiateMultipartUploadResult \(namespace)><Bucket>b</Bucket><Key>k</Key><UploadId> x.y_z </UploadId></InitiateMultipartUploadResult>"
                        .utf8)), "x.y_z")
        XCTAssertNil(MultipartAnswers.uploadID(Array("<InitiateMultipartUploadResult/>".utf8)))
        XCTAssertNil(MultipartAnswers.uploadID(Array("<Error><Code>AccessDenied</Code></Error>".utf8)))

        let page = """
            <ListPartsResponse \(namespace)><IsTruncated>true</IsTruncated><NextPartNumberMarker>2</NextPartNumberMarker>
            <Part><PartNumber>1</PartNumber><ETag>&quot;aa&quot;</ETag><Size>5242880</Size></Part>
            <Part><PartNumber>2</PartNumber><ETag>"bb"</ETag><Size>10</Size></Part></ListPartsResponse>
            """
        XCTAssertEqual(
            MultipartAnswers.partsPage(Array(page.utf8), after: nil),
            .init(
                parts: [.init(number: 1, entityTag: "\"aa\"", size: 5_242_880), .init(number: 2, entityTag: "\"bb\"", size: 10)],
                nextMarker: 2))
        XCTAssertNil(MultipartAnswers.partsPage(Array(page.utf8), after: 2), "a marker that does not move on")
        XCTAssertEqual(
            MultipartAnswers.partsPage(
                Array("<ListPartsResult><IsTruncated>false</IsTruncated></ListPartsResult>".utf8), after: 7),
            .init(parts: [], nextMarker: nil))
        XCTAssertNil(
            MultipartAnswers.partsPage(
                Array(
                    "<ListPartsResult><Part><PartNumber>x</PartNumber><ETag>a</ETag><Size>1</Size></Part></ListPartsResult>".utf8),
                after: nil))

        XCTAssertEqual(
            MultipartAnswers.completedEntityTag(
                Array("<CompleteMultipartUploadResult \(namespace)><ETag>\"ab-3\"</ETag></CompleteMultipartUploadResult>".utf8)),
            "\"ab-3\"")
        XCTAssertNil(MultipartAnswers.completedEntityTag(Array("<Error><Code>InternalError</Code></Error>".utf8)))
    }

    func testTheCompletionBodyIsXMLThatReadsBack() throws {
        let body = MultipartAnswers.completionBody([
            (1, .init(entityTag: "\"a&b<c>\"", sha256: "x+/=")), (2, .init(entityTag: "'q'", sha256: "y")),
        ])
        let text = String(decoding: body, as: UTF8.self)
        XCTAssertTrue(text.contains("<ETag>&quot;a&amp;b&lt;c&gt;&quot;</ETag>"), text)
        guard let xml = S3XML(body) else { return XCTFail("not well-formed: \(text)") }
        let parts = try XCTUnwrap(xml.root(named: "CompleteMultipartUpload")).children(named: "Part")
        XCTAssertEqual(parts.map { $0.text(of: "ETag") }, ["\"a&b<c>\"", "'q'"])
        XCTAssertEqual(parts.map { $0.text(of: "PartNumber") }, ["1", "2"])
        XCTAssertEqual(parts.map { $0.text(of: "ChecksumSHA256") }, ["x+/=", "y"])
    }

    func testMultipartURLsAreInSigV4sCanonicalForm() throws {
        let endpoint = try S3Endpoint(url: "http://127.0.0.1:9000", region: "us-east-1", pathStyle: nil)
        let object = S3Location(bucket: "bkt", key: "a b/c")
        XCTAssertEqual(endpoint.uploadsURL(object), "http://127.0.0.1:9000/bkt/a%20b/c?uploads=")
        XCTAssertEqual(
            endpoint.partURL(object, uploadID: "x/y+z=", number: 7),
            "http://127.0.0.1:9000/bkt/a%20b/c?partNumber=7&uploadId=x%2Fy%2Bz%3D")
        XCTAssertEqual(endpoint.uploadURL(object, uploadID: "id"), "http://127.0.0.1:9000/bkt/a%20b/c?uploadId=id")
        XCTAssertEqual(
            endpoint.partsURL(object, uploadID: "id", after: 1000),
            "http://127.0.0.1:9000/bkt/a%20b/c?part-number-marker=1000&uploadId=id")
    }

    func testTargetsOfFilesAndDirectories() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("s3targets-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for path in ["d/a.txt", "d/sub/b.txt", "d/sub/deeper/c.txt"] {
            let file = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: String(file[..<file.lastIndex(of: "/")!]), withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(path.utf8)))
        }
        XCTAssertEqual(symlink(root + "/d", root + "/d/sub/loop"), 0)
        let prefix = S3Location(bucket: "b", key: "up/")
        XCTAssertEqual(
            try S3Upload.targets([root + "/d/"], to: prefix, recursive: true).map(\.location.key),
            ["up/a.txt", "up/sub/b.txt", "up/sub/deeper/c.txt"], "a link is not followed")
        XCTAssertEqual(
            try S3Upload.targets([root + "/d/a.txt"], to: prefix, recursive: false).map(\.location.key), ["up/a.txt"])
        XCTAssertEqual(
            try S3Upload.targets([root + "/d/a.txt"], to: S3Location(bucket: "b", key: "k"), recursive: false).map(
                \.location.key),
            ["k"])
        XCTAssertEqual(
            try S3Upload.targets([root + "/d"], to: S3Location(bucket: "b", key: "up"), recursive: true).first?.location.key,
            "up/a.txt", "with -r a key is a prefix")
    }
}
