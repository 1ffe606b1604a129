import AFGetRequest
import AFGetSupport
import XCTest

@testable import AFGetKit

/// ListObjectsV2 pages and error bodies read through libxml2, and an ETag as an MD5.
final class S3DocumentTests: XCTestCase {
    private func page(_ contents: String, truncated: Bool = false, token: String? = nil) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
            <Name>bkt</Name><Prefix>p/</Prefix><KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys>
            <IsTruncated>\(truncated)</IsTruncated>\(token.map { "<NextContinuationToken>\($0)</NextContinuationToken>" } ?? "")
            \(contents)
            </ListBucketResult>
            """.utf8)
    }

    func testAPageItsObjectsAndItsNextToken() throws {
        let read = try XCTUnwrap(
            ListObjectsPage(
                page(
                    """
                    <Contents><Key>p/a &amp; b.txt</Key><LastModified>2024-05-01T12:00:00.000Z</LastModified>
                    <ETag>&quot;9e107d9d372bb6826bd81d3542a419d6&quot;</ETag><Size>43</Size>
                    <StorageClass>STANDARD</StorageClass></Contents>
                    <Contents><Key>p/ü/big</Key><ETag>"abc-12"</ETag><Size>5000000000</Size></Contents>
                    """, truncated: true, token: "1/token+=")))
        XCTAssertEqual(read.keys, ["p/a & b.txt", "p/ü/big"], "entities decoded, UTF-8 kept")
        XCTAssertEqual(read.nextToken, "1/token+=")
        XCTAssertNil(try XCTUnwrap(ListObjectsPage(page(""))).nextToken, "the last page")
        XCTAssertEqual(try XCTUnwrap(ListObjectsPage(page(""))).keys, [])
        // Without namespace (some stores), still a listing.
        XCTAssertNotNil(ListObjectsPage(Array("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>".utf8)))
        XCTAssertNil(ListObjectsPage(page("", truncated: true)), "truncated without a token: no next page to ask for")
        XCTAssertNil(ListObjectsPage(Array("<html>no</html>".utf8)))
        XCTAssertNil(ListObjectsPage(Array("<ListBucketResult>".utf8)), "not well-formed")
        XCTAssertNil(ListObjectsPage([]))
    }

    func testErrorBodiesAsFailures() throws {
        func failure(_ status: Int, _ body: String) -> TransferFailure? {
            S3ErrorDocument.failure(ResponseHead(status: status, reason: "Phrase"), body: Array(body.utf8))
        }
        let rows: [(status: Int, code: String, exit: FailureClass, words: String)] = [
            (404, "NoSuchKey", .httpStatus, "HTTP 404 Phrase: NoSuchKey (said)"),
            (404, "NoSuchBucket", .httpStatus, "HTTP 404 Phrase: NoSuchBucket (said)"),
            (
                403, "AccessDenied", .authentication,
                "HTTP 403 Phrase: AccessDenied (said): the credentials given (or none: --no-sign-request) may not read this"
            ),
            (
                403, "SignatureDoesNotMatch", .authentication,
                "HTTP 403 Phrase: SignatureDoesNotMatch (said): the secret key does not match the access key (or the region is wrong)"
            ),
            (
                403, "InvalidAccessKeyId", .authentication,
                "HTTP 403 Phrase: InvalidAccessKeyId (said): the store does not know this access key"
            ),
            (400, "ExpiredToken", .authentication, "HTTP 400 Phrase: ExpiredToken (said): the session token is no longer valid"),
            (503, "SlowDown", .httpStatus, "HTTP 503 Phrase: SlowDown (said)"),
        ]
        for row in rows {
            let read = try XCTUnwrap(
                failure(row.status, "<?xml version=\"1.0\"?><Error><Code>\(row.code)</Code><Message>said</Message></Error>"),
                row.code)
            XCTAssertEqual(read.kind, row.exit, row.code)
            XCTAssertEqual(read.message, row.words, row.code)
            XCTAssertEqual(read.reason.code, "store-error")
        }
        XCTAssertNil(failure(403, ""), "no body: the status alone")
        XCTAssertNil(failure(500, "<html>oops</html>"))
        XCTAssertNil(failure(403, "<Error><Message>no code</Message></Error>"))
    }

    func testAnETagIsAnMD5OnlyWhenSinglePart() {
        let rows: [(String, String?)] = [
            ("\"9E107D9D372BB6826BD81D3542A419D6\"", "9e107d9d372bb6826bd81d3542a419d6"),
            ("9e107d9d372bb6826bd81d3542a419d6", "9e107d9d372bb6826bd81d3542a419d6"),
            ("W/\"9e107d9d372bb6826bd81d3542a419d6\"", "9e107d9d372bb6826bd81d3542a419d6"),
            ("\"9e107d9d372bb6826bd81d3542a419d6-3\"", nil),  // multipart
            ("\"xyz07d9d372bb6826bd81d3542a419d6\"", nil),
            ("\"\"", nil),
        ]
        for (tag, md5) in rows {
            XCTAssertEqual(DownloadJob.objectMD5(inEntityTag: tag), md5, tag)
        }
    }

    func testKeysBelowThePrefixAndTheGlobs() throws {
        let listing = S3Listing(
            prefixes: [], access: .anonymous, directory: "out", include: ["*.txt", "logs/*"], exclude: ["*/tmp/*"])
        XCTAssertEqual(listing.relativePath(of: "p/a/b.txt", below: "p/"), "a/b.txt")
        XCTAssertNil(listing.relativePath(of: "p/", below: "p/"), "the prefix itself")
        XCTAssertNil(listing.relativePath(of: "p/folder/", below: "p/"), "a console's folder object")
        XCTAssertTrue(listing.chosen("a/b.txt"), "* crosses /")
        XCTAssertTrue(listing.chosen("logs/x.log"))
        XCTAssertFalse(listing.chosen("a/b.bin"))
        XCTAssertFalse(listing.chosen("a/tmp/b.txt"))
    }
}
