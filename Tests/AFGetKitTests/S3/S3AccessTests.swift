import AFGetRequest
import AFGetSupport
import XCTest

@testable import AFGetKit

/// Where credentials, region and endpoint come from: the environment first, then the profile's
/// settings in ~/.aws/credentials and ~/.aws/config, else anonymous; and those files' lines.
final class S3AccessTests: XCTestCase {
    private let credentials = """
        # comment
        [default]
        aws_access_key_id = AKIDDEFAULT
        aws_secret_access_key = secretdefault

        [work]
        aws_access_key_id=AKIDWORK
        aws_secret_access_key=secret=work
        aws_session_token = tokenwork
        """
    private let config = """
        [default]
        region = eu-west-3
        [profile work]
        region = ap-south-1
        s3 =
          addressing_style = path
        ; comment
        [profile cfgonly]
        aws_access_key_id = AKIDCFG
        aws_secret_access_key = secretcfg
        endpoint_url = http://127.0.0.1:9000
        [sso-session x]
        sso_region = us-east-1
        """

    private func access(
        _ choices: S3Access.Choices = S3Access.Choices(), _ environment: [String: String] = [:], files: Bool = true
    ) throws -> S3Access {
        try S3Access(choices, environment: environment, home: "/home/u") { path in
            guard files else { return nil }
            if path == "/home/u/.aws/credentials" { return self.credentials }
            if path == "/home/u/.aws/config" { return self.config }
            return nil
        }
    }

    func testTheChain() throws {
        let rows:
            [(
                name: String, choices: S3Access.Choices, environment: [String: String], files: Bool,
                key: String?, secret: String?, token: String?, region: String
            )] = [
                ("nothing at all", .init(), [:], false, nil, nil, nil, "us-east-1"),
                ("default profile", .init(), [:], true, "AKIDDEFAULT", "secretdefault", nil, "eu-west-3"),
                (
                    "environment wins", .init(),
                    [
                        "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "secretenv",
                        "AWS_SESSION_TOKEN": "tokenenv",
                    ], true, "AKIDENV", "secretenv", "tokenenv", "eu-west-3"
                ),
                ("AWS_PROFILE", .init(), ["AWS_PROFILE": "work"], true, "AKIDWORK", "secret=work", "tokenwork", "ap-south-1"),
                (
                    "--profile over AWS_PROFILE", .init(profile: "work"), ["AWS_PROFILE": "default"], true, "AKIDWORK",
                    "secret=work", "tokenwork", "ap-south-1"
                ),
                ("keys in config", .init(profile: "cfgonly"), [:], true, "AKIDCFG", "secretcfg", nil, "us-east-1"),
                (
                    "AWS_REGION over the profile", .init(), ["AWS_REGION": "sa-east-1", "AWS_DEFAULT_REGION": "x"], true,
                    "AKIDDEFAULT", "secretdefault", nil, "sa-east-1"
                ),
                (
                    "AWS_DEFAULT_REGION", .init(), ["AWS_DEFAULT_REGION": "ca-central-1"], true, "AKIDDEFAULT", "secretdefault",
                    nil, "ca-central-1"
                ),
                (
                    "--no-sign-request", .init(unsigned: true), ["AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B"], true,
                    nil, nil, nil, "eu-west-3"
                ),
            ]
        for row in rows {
            let read = try access(row.choices, row.environment, files: row.files)
            XCTAssertEqual(read.signing?.accessKeyID, row.key, row.name)
            XCTAssertEqual(read.signing?.secretAccessKey, row.secret, row.name)
            XCTAssertEqual(read.signing?.sessionToken, row.token, row.name)
            XCTAssertEqual(read.region, row.region, row.name)
            XCTAssertEqual(read.signing?.region ?? read.region, row.region, row.name)
        }
    }

    func testEndpointAndStyleFromTheProfileAndTheEnvironment() throws {
        XCTAssertEqual(try access().endpoint.base.absoluteString, "https://s3.eu-west-3.amazonaws.com/")
        XCTAssertFalse(try access().endpoint.pathStyle)
        XCTAssertTrue(try access(.init(profile: "work")).endpoint.pathStyle, "s3 = / addressing_style = path")
        XCTAssertEqual(try access(.init(profile: "cfgonly")).endpoint.base.absoluteString, "http://127.0.0.1:9000/")
        XCTAssertTrue(try access(.init(profile: "cfgonly")).endpoint.pathStyle, "an IP address: path style")
        let fromEnvironment = try access(.init(), ["AWS_ENDPOINT_URL": "https://r2.example.com"])
        XCTAssertEqual(fromEnvironment.endpoint.base.host, "r2.example.com")
        let given = try access(.init(endpoint: "http://localhost:1234", pathStyle: nil), ["AWS_ENDPOINT_URL": "https://x.y"])
        XCTAssertEqual(given.endpoint.base.absoluteString, "http://localhost:1234/")
    }

    func testRefusals() {
        let rows: [(S3Access.Choices, [String: String], String)] = [
            (.init(profile: "nobody"), [:], "aws-profile-missing"),
            (.init(), ["AWS_PROFILE": "nobody"], "aws-profile-missing"),
            (.init(), ["AWS_ACCESS_KEY_ID": "A"], "aws-key-half"),
            (.init(), ["AWS_SECRET_ACCESS_KEY": "B"], "aws-key-half"),
            (.init(endpoint: "ftp://x"), [:], "s3-endpoint-malformed"),
        ]
        for (choices, environment, code) in rows {
            XCTAssertThrowsError(try access(choices, environment)) { error in
                XCTAssertEqual((error as? TransferFailure)?.reason.code, code)
                XCTAssertEqual((error as? TransferFailure)?.kind, .usage)
            }
        }
    }

    func testProfileFileLines() throws {
        let file = try AWSProfileFile(
            text: "[a]\r\nx = 1\r\n\n  # indented comment\n[profile b]\ny=2\ns3 =\n  addressing_style = virtual\n",
            kind: .credentials, path: "c")
        XCTAssertEqual(file.value("x", in: "a"), "1", "CRLF lines")
        XCTAssertEqual(file.value("y", in: "profile b"), "2", "in the credentials file a section is the profile's name")
        XCTAssertEqual(file.value("s3.addressing_style", in: "profile b"), "virtual")
        let config = try AWSProfileFile(text: "[profile b]\ny=2\n[b]\nz=3\n", kind: .config, path: "c")
        XCTAssertEqual(config.value("y", in: "b"), "2")
        XCTAssertNil(config.value("z", in: "b"), "[b] is no profile's section in the config file")
        XCTAssertThrowsError(try AWSProfileFile(text: "[a]\nnot a setting\n", kind: .config, path: "/h/.aws/config")) {
            XCTAssertEqual(
                ($0 as? TransferFailure)?.message, "/h/.aws/config:2: not a [section], a name = value line or a comment")
        }
    }
}
