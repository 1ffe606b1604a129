/// How a request to an S3 store is signed: AWS Signature Version 4, computed by libcurl
/// (`CURLOPT_AWS_SIGV4`) over the headers it sends, Range and If-Range among them. The secret
/// is handed to libcurl and nowhere else: this value never prints it.
public struct S3Signing: Sendable, Equatable, CustomStringConvertible {
    public let region: String
    public let accessKeyID: String
    public let secretAccessKey: String
    /// Temporary credentials' token, sent as `x-amz-security-token` (and so signed).
    public let sessionToken: String?

    public init(region: String, accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.region = region
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// libcurl's provider string: `aws:amz:REGION:s3`.
    public var provider: String { "aws:amz:\(region):s3" }

    /// What the signature needs besides libcurl's own: S3 refuses a signed request without
    /// `x-amz-content-sha256`, which libcurl 7.88 does not add (it signs the value given:
    /// a GET has no body to hash).
    public var headers: [HTTPHeader] {
        var headers = [HTTPHeader(name: "x-amz-content-sha256", value: "UNSIGNED-PAYLOAD")]
        if let sessionToken { headers.append(HTTPHeader(name: "x-amz-security-token", value: sessionToken)) }
        return headers
    }

    /// The key's ID only: a signing printed by mistake shows no secret.
    public var description: String { "S3Signing(\(region), \(accessKeyID))" }
}
