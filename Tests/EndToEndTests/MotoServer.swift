import Foundation
import XCTest

/// moto's S3 server (`python3 -m moto.server`, from pip: Scripts/test.sh installs it) on a
/// free loopback port, seeded with boto3. `checksSignatures`: moto's IAM mode, where every
/// request after the first three (which make the user and its key) must be signed by a key it
/// issued; without it moto takes any signature, or none for a public-read object.
final class MotoServer {
    let server: ServerProgram
    /// The key moto issued, in IAM mode; any pair otherwise.
    let accessKey: String
    let secretKey: String

    init(checksSignatures: Bool = false) throws {
        server = try ServerProgram("/usr/bin/env") { port, _ in
            // IAM mode is an environment setting of moto's: `env` sets it for the server alone.
            (checksSignatures ? ["INITIAL_NO_AUTH_ACTION_COUNT=3"] : []) + ["python3", "-m", "moto.server", "-p", String(port)]
        }
        guard checksSignatures else {
            (accessKey, secretKey) = ("AKIDTESTTESTTEST", "test/secret+key")
            return
        }
        let keys = try Self.python(
            """
            import boto3, sys
            iam = boto3.client("iam", endpoint_url=sys.argv[1], region_name="us-east-1",
                               aws_access_key_id="x", aws_secret_access_key="y")
            iam.create_user(UserName="afget")
            key = iam.create_access_key(UserName="afget")["AccessKey"]
            iam.put_user_policy(UserName="afget", PolicyName="all", PolicyDocument=
                '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}')
            print(key["AccessKeyId"], key["SecretAccessKey"])
            """, ["http://127.0.0.1:\(server.port)"]
        ).split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        (accessKey, secretKey) = (keys[0], keys[1])
    }

    var endpoint: String { "http://127.0.0.1:\(server.port)" }

    /// What afget needs in its environment to sign with this server's key, and nothing of the
    /// machine's own `~/.aws`.
    var signingEnvironment: [String: String] {
        Self.isolated.merging(["AWS_ACCESS_KEY_ID": accessKey, "AWS_SECRET_ACCESS_KEY": secretKey]) { $1 }
    }

    /// No credentials at all: environment and files.
    static let isolated = [
        "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/afget-tests", "AWS_CONFIG_FILE": "/nonexistent/afget-tests",
        "AWS_PROFILE": "", "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "",
        "AWS_ENDPOINT_URL": "", "AWS_REGION": "", "AWS_DEFAULT_REGION": "",
    ]

    /// Makes `bucket` (when not there) and puts every file below `directory` as the object
    /// named by its path below it, after `prefix`; `publicRead` makes them readable unsigned.
    func upload(_ directory: URL, bucket: String, prefix: String = "", publicRead: Bool = false) throws {
        _ = try Self.python(
            """
            import boto3, os, sys
            from concurrent.futures import ThreadPoolExecutor
            from botocore.config import Config
            endpoint, key, secret, bucket, root, prefix, acl = sys.argv[1:8]
            s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                              aws_secret_access_key=secret,
                              config=Config(s3={"addressing_style": "path"}, request_checksum_calculation="when_required",
                                            max_pool_connections=16))
            try:
                s3.create_bucket(Bucket=bucket)
            except s3.exceptions.BucketAlreadyOwnedByYou:
                pass
            files = [os.path.join(d, f) for d, _, names in os.walk(root) for f in names]
            def put(path):
                extra = {"ACL": "public-read"} if acl == "public" else {}
                with open(path, "rb") as body:
                    s3.put_object(Bucket=bucket, Key=prefix + os.path.relpath(path, root), Body=body, **extra)
            with ThreadPoolExecutor(16) as pool:
                list(pool.map(put, files))
            """, [endpoint, accessKey, secretKey, bucket, directory.path, prefix, publicRead ? "public" : "private"])
    }

    /// Makes `bucket`, empty.
    func createBucket(_ bucket: String) throws {
        _ = try Self.python(
            Self.client + "s3.create_bucket(Bucket=sys.argv[4])\n", [endpoint, accessKey, secretKey, bucket])
    }

    /// An object as boto3 reads it back: the SHA-256 of its bytes, the checksum the store kept
    /// (`ChecksumSHA256`, "" when none) and its ETag.
    func object(_ bucket: String, _ key: String) throws -> (sha256: String, checksum: String, entityTag: String) {
        let said = try Self.python(
            Self.client + """
                import hashlib
                o = s3.get_object(Bucket=sys.argv[4], Key=sys.argv[5], ChecksumMode="ENABLED")
                print(hashlib.sha256(o["Body"].read()).hexdigest(), o.get("ChecksumSHA256") or "-", o["ETag"])
                """, [endpoint, accessKey, secretKey, bucket, key]
        ).split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return (said[0], said[1] == "-" ? "" : said[1], said[2])
    }

    /// Every key in `bucket` below `prefix` with the SHA-256 of its bytes.
    func objects(_ bucket: String, prefix: String) throws -> [String: String] {
        let said = try Self.python(
            Self.client + """
                import hashlib
                for page in s3.get_paginator("list_objects_v2").paginate(Bucket=sys.argv[4], Prefix=sys.argv[5]):
                    for item in page.get("Contents", []):
                        body = s3.get_object(Bucket=sys.argv[4], Key=item["Key"])["Body"].read()
                        print(item["Key"] + "\\t" + hashlib.sha256(body).hexdigest())
                """, [endpoint, accessKey, secretKey, bucket, prefix])
        var found: [String: String] = [:]
        for line in said.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count == 2 { found[String(fields[0])] = String(fields[1]) }
        }
        return found
    }

    /// The ids of the multipart uploads `bucket` holds unfinished.
    func unfinishedUploads(_ bucket: String) throws -> [String] {
        try Self.python(
            Self.client + """
                for upload in s3.list_multipart_uploads(Bucket=sys.argv[4]).get("Uploads", []):
                    print(upload["UploadId"])
                """, [endpoint, accessKey, secretKey, bucket]
        ).split(separator: "\n").map(String.init)
    }

    /// A boto3 client from argv's endpoint, key and secret, path style.
    private static let client = """
        import boto3, sys
        from botocore.config import Config
        s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1", aws_access_key_id=sys.argv[2],
                          aws_secret_access_key=sys.argv[3], config=Config(s3={"addressing_style": "path"}))

        """

    /// Runs `script` with python3 and `arguments`; its standard output, or a failure with its errors.
    private static func python(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ServerProgramError(message: "python3 failed: \(String(decoding: said, as: UTF8.self))")
        }
        return String(decoding: printed, as: UTF8.self)
    }
}
