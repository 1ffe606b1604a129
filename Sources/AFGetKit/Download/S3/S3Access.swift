import AFGetRequest
import AFGetSupport
import CurlCore
import Glibc

/// Who afget is to an S3 store and where the store is, found as the AWS CLI finds them:
/// credentials from the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
/// `AWS_SESSION_TOKEN`), else the profile's (`--profile`, else `AWS_PROFILE`, else `default`)
/// in `~/.aws/credentials` then `~/.aws/config`, else none: anonymous, as a public bucket is
/// read. The region from `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else
/// us-east-1; the endpoint from `--s3-endpoint`, `AWS_ENDPOINT_URL`, else AWS's for the region.
public struct S3Access: Sendable, Equatable {
    public let endpoint: S3Endpoint
    /// Nil: requests go unsigned.
    public let signing: S3Signing?
    public let region: String
    /// Where the credentials came from, for `-v` ("environment", "profile default in
    /// ~/.aws/credentials", "none: anonymous").
    public let credentialSource: String

    /// What the command line says; the rest comes from `environment` and the files.
    public struct Choices: Sendable, Equatable {
        public var endpoint: String?
        public var pathStyle: Bool?
        public var profile: String?
        public var unsigned = false

        public init(endpoint: String? = nil, pathStyle: Bool? = nil, profile: String? = nil, unsigned: Bool = false) {
            self.endpoint = endpoint
            self.pathStyle = pathStyle
            self.profile = profile
            self.unsigned = unsigned
        }
    }

    /// Anonymous access to AWS in us-east-1: what a run without any setting gets.
    public static let anonymous = S3Access(
        endpoint: try! S3Endpoint(url: nil, region: "us-east-1", pathStyle: false), signing: nil, region: "us-east-1",
        credentialSource: "none: anonymous")

    init(endpoint: S3Endpoint, signing: S3Signing?, region: String, credentialSource: String) {
        self.endpoint = endpoint
        self.signing = signing
        self.region = region
        self.credentialSource = credentialSource
    }

    /// `choices` completed from `environment` and the profile files under `home` (their
    /// contents read by `read`, nil for a file that is not there). A profile named but found
    /// in neither file, a line the files cannot hold, half a key: a usage failure.
    public init(
        _ choices: Choices, environment: [String: String], home: String?,
        read: (String) -> String? = Self.readFile
    ) throws(TransferFailure) {
        let credentialsPath =
            environment["AWS_SHARED_CREDENTIALS_FILE"] ?? home.map { joinPath($0, ".aws/credentials") }
        let configPath = environment["AWS_CONFIG_FILE"] ?? home.map { joinPath($0, ".aws/config") }
        let credentialsFile = try credentialsPath.flatMap { path throws(TransferFailure) in
            try read(path).map { text throws(TransferFailure) in
                try AWSProfileFile(text: text, kind: .credentials, path: path)
            }
        }
        let configFile = try configPath.flatMap { path throws(TransferFailure) in
            try read(path).map { text throws(TransferFailure) in try AWSProfileFile(text: text, kind: .config, path: path) }
        }
        let named = choices.profile ?? environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
        let profile = named ?? "default"
        if let named, credentialsFile?.has(named) != true, configFile?.has(named) != true {
            throw TransferFailure(.input(.awsProfileMissing(named)))
        }
        func setting(_ name: String) -> String? {
            credentialsFile?.value(name, in: profile) ?? configFile?.value(name, in: profile)
        }
        region =
            environment["AWS_REGION"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["AWS_DEFAULT_REGION"].flatMap { $0.isEmpty ? nil : $0 } ?? setting("region") ?? "us-east-1"
        let pathStyle = choices.pathStyle ?? setting("s3.addressing_style").map { $0 == "path" }
        endpoint = try S3Endpoint(
            url: choices.endpoint ?? environment["AWS_ENDPOINT_URL_S3"] ?? environment["AWS_ENDPOINT_URL"]
                ?? setting("endpoint_url"),
            region: region, pathStyle: pathStyle)
        if choices.unsigned {
            (signing, credentialSource) = (nil, "none: --no-sign-request")
            return
        }
        let key = environment["AWS_ACCESS_KEY_ID"].flatMap { $0.isEmpty ? nil : $0 }
        let secret = environment["AWS_SECRET_ACCESS_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        switch (key, secret) {
        case (let key?, let secret?):
            signing = S3Signing(
                region: region, accessKeyID: key, secretAccessKey: secret,
                sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
            credentialSource = "environment (AWS_ACCESS_KEY_ID)"
        case (nil, nil):
            if let key = setting("aws_access_key_id"), let secret = setting("aws_secret_access_key") {
                signing = S3Signing(
                    region: region, accessKeyID: key, secretAccessKey: secret,
                    sessionToken: setting("aws_session_token"))
                let file = credentialsFile?.value("aws_access_key_id", in: profile) != nil ? credentialsPath : configPath
                credentialSource = "profile \(profile) in \(file ?? "")"
            } else {
                (signing, credentialSource) = (nil, "none: anonymous")
            }
        case (nil, _):
            throw TransferFailure(.input(.awsKeyHalf(which: "AWS_SECRET_ACCESS_KEY")))
        case (_, nil):
            throw TransferFailure(.input(.awsKeyHalf(which: "AWS_ACCESS_KEY_ID")))
        }
    }

    /// What `-v` says of it: the endpoint and its style, the region, where the credentials
    /// came from (never the keys themselves).
    public var summary: String {
        "\(endpoint.base.absoluteString) (\(endpoint.pathStyle ? "path" : "virtual-hosted") style), region \(region), "
            + "credentials: \(credentialSource)"
    }

    /// A file's text, nil when it cannot be read (not there: no settings from it).
    public static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard case .success(let bytes) = readAll(descriptor, limit: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The HTTP request for the object `url` (`s3://BUCKET/KEY`) names, signed when there are
    /// credentials, with `headers` (the run's and the item's).
    func request(for url: CurlURL, headers: [HTTPHeader]) throws(ItemFailure) -> HTTPRequest {
        guard let location = S3Location(url), !location.isPrefix else {
            throw ItemFailure(
                item: url.absoluteString,
                TransferFailure(.input(S3Location(url) == nil ? .s3URLMalformed : .s3PrefixInList)))
        }
        return try request(to: endpoint.objectURL(location), headers: headers)
    }

    /// A request to `url` (an object's or a listing's), signed when there are credentials (the
    /// signature's own headers are the session's to add).
    func request(to url: String, headers: [HTTPHeader]) throws(ItemFailure) -> HTTPRequest {
        var request = try RequestSerializer(headers: headers).request(url: url, for: .download)
        request.signing = signing
        return request
    }
}
