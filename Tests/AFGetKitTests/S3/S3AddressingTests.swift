import AFGetRequest
import AFGetSupport
import CurlCore
import XCTest

@testable import AFGetKit

/// `s3://` URLs read as bucket and key, and the HTTP URLs made of them: both addressing styles,
/// keys escaped as SigV4's canonical form wants them, ListObjectsV2's query.
final class S3AddressingTests: XCTestCase {
    private func location(_ url: String) throws -> S3Location? {
        S3Location(try CurlURL(url))
    }

    func testKeysAreTheURLPathDecoded() throws {
        let rows: [(url: String, bucket: String, key: String)] = [
            ("s3://bkt/a/b.txt", "bkt", "a/b.txt"),
            ("s3://bkt/a b.txt", "bkt", "a b.txt"),  // a space typed as it is
            ("s3://bkt/a%20b.txt", "bkt", "a b.txt"),
            ("s3://bkt/ü+x.txt", "bkt", "ü+x.txt"),  // + is a plus in a path, not a space
            ("s3://bkt/100%25.txt", "bkt", "100%.txt"),
            ("s3://bkt/q%3F.txt", "bkt", "q?.txt"),
            ("s3://bkt/prefix/", "bkt", "prefix/"),
            ("s3://bkt", "bkt", ""),
        ]
        for row in rows {
            let read = try XCTUnwrap(try location(row.url), row.url)
            XCTAssertEqual(read.bucket, row.bucket, row.url)
            XCTAssertEqual(read.key, row.key, row.url)
            XCTAssertEqual(try location(read.url), read, "\(row.url) reads back the same from \(read.url)")
        }
        XCTAssertTrue(try XCTUnwrap(try location("s3://bkt/prefix/")).isPrefix)
        XCTAssertTrue(try XCTUnwrap(try location("s3://bkt")).isPrefix)
        XCTAssertFalse(try XCTUnwrap(try location("s3://bkt/file")).isPrefix)
        for refused in ["s3://bkt/a?versionId=1", "s3://bkt/a#b", "s3://user@bkt/a", "s3://bkt/%FF"] {
            XCTAssertNil(try location(refused), refused)
        }
    }

    func testObjectURLsInBothStyles() throws {
        let object = S3Location(bucket: "bkt", key: "dir/ü+x y~.txt")
        let rows: [(endpoint: String?, pathStyle: Bool?, url: String)] = [
            (nil, nil, "https://bkt.s3.eu-west-1.amazonaws.com/dir/%C3%BC%2Bx%20y~.txt"),
            (nil, true, "https://s3.eu-west-1.amazonaws.com/bkt/dir/%C3%BC%2Bx%20y~.txt"),
            ("http://127.0.0.1:9000", nil, "http://127.0.0.1:9000/bkt/dir/%C3%BC%2Bx%20y~.txt"),
            ("http://localhost:9000/", nil, "http://localhost:9000/bkt/dir/%C3%BC%2Bx%20y~.txt"),
            ("http://[::1]:9000", nil, "http://[::1]:9000/bkt/dir/%C3%BC%2Bx%20y~.txt"),
            ("https://minio.example.org", nil, "https://bkt.minio.example.org/dir/%C3%BC%2Bx%20y~.txt"),
            ("https://minio.example.org:443", true, "https://minio.example.org/bkt/dir/%C3%BC%2Bx%20y~.txt"),
            ("http://127.0.0.1:9000", false, "http://bkt.127.0.0.1:9000/dir/%C3%BC%2Bx%20y~.txt"),
        ]
        for row in rows {
            let endpoint = try S3Endpoint(url: row.endpoint, region: "eu-west-1", pathStyle: row.pathStyle)
            XCTAssertEqual(endpoint.objectURL(object), row.url, "\(row.endpoint ?? "AWS") \(String(describing: row.pathStyle))")
        }
        for bad in ["ftp://host", "http://host/path", "not a url", "http://host/?x=1"] {
            XCTAssertThrowsError(try S3Endpoint(url: bad, region: "us-east-1", pathStyle: nil), bad)
        }
    }

    func testListURLsQueryInNameOrderEscapedAsSigned() throws {
        let endpoint = try S3Endpoint(url: "http://127.0.0.1:9000", region: "us-east-1", pathStyle: nil)
        XCTAssertEqual(
            endpoint.listURL(bucket: "bkt", prefix: "a b/ü/", continuationToken: nil),
            "http://127.0.0.1:9000/bkt/?list-type=2&prefix=a%20b%2F%C3%BC%2F")
        XCTAssertEqual(
            endpoint.listURL(bucket: "bkt", prefix: "", continuationToken: "1/2+3="),
            "http://127.0.0.1:9000/bkt/?continuation-token=1%2F2%2B3%3D&list-type=2&prefix=")
    }

    func testSigningNeverPrintsTheSecretAndSendsTheTokenAndPayloadHeaders() {
        let signing = S3Signing(region: "eu-central-1", accessKeyID: "AKID", secretAccessKey: "s3cr3t", sessionToken: "tok")
        XCTAssertEqual(signing.provider, "aws:amz:eu-central-1:s3")
        XCTAssertFalse("\(signing)".contains("s3cr3t"))
        XCTAssertFalse(String(reflecting: signing).contains("s3cr3t"))
        XCTAssertEqual(
            signing.headers.map(\.line), ["x-amz-content-sha256: UNSIGNED-PAYLOAD", "x-amz-security-token: tok"])
        // The token's header is masked in -v and never written to resume data.
        XCTAssertTrue(HeaderMasking.mayHoldSecret("x-amz-security-token"))
    }
}
