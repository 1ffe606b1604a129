import AFGetKit
import AFGetRequest
import AFGetSupport
import ArgumentParser
import FoundationEssentials
import Glibc

/// Where `s3://` URLs go and who afget is there (downloads, `afget resume`, uploads); the rest comes
/// from the environment and `~/.aws` as the AWS CLI reads them (`S3Access`).
struct S3Options: ParsableArguments {
    @Option(
        name: .customLong("s3-endpoint"),
        help: ArgumentHelp(
            "The S3 store's URL (default: AWS_ENDPOINT_URL, else https://s3.REGION.amazonaws.com).", valueName: "url"))
    var endpoint: String?

    @Flag(
        name: .customLong("s3-path-style"),
        help: "Bucket in the path (http://HOST/BUCKET/KEY), as MinIO and moto want; the default for an IP address or localhost.")
    var pathStyle = false

    @Option(
        name: .customLong("profile"),
        help: ArgumentHelp(
            "The AWS profile of ~/.aws/credentials and ~/.aws/config (default: AWS_PROFILE, else default).", valueName: "name"))
    var profile: String?

    @Flag(
        name: .customLong("no-sign-request"),
        help: "Sign no S3 request (anonymous, as a public bucket is used), whatever credentials there are.")
    var unsigned = false

    @Option(
        name: .customLong("include"),
        help: ArgumentHelp("Of an S3 prefix, only keys whose path below it matches this glob (repeatable).", valueName: "glob"))
    var include: [String] = []

    @Option(
        name: .customLong("exclude"),
        help: ArgumentHelp("Of an S3 prefix, no key whose path below it matches this glob (repeatable).", valueName: "glob"))
    var exclude: [String] = []

    /// The store and credentials, from these options, the environment and the files; a
    /// failure (a profile not found, a line the files cannot hold) is kept for the `s3://`
    /// items, so a run of http URLs never reads them wrong.
    func access() -> Result<S3Access, TransferFailure> {
        let environment = ProcessInfo.processInfo.environment
        return Result { () throws(TransferFailure) in
            try S3Access(
                S3Access.Choices(
                    endpoint: endpoint, pathStyle: pathStyle ? true : nil, profile: profile, unsigned: unsigned),
                environment: environment, home: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// Whether `--include` and `--exclude` keep an upload: its key's path below the prefix
    /// `location` names, matched as a listing's keys are (fnmatch, `*` crossing `/`).
    func chosen(relativePath upload: S3Upload, to location: S3Location) -> Bool {
        let prefix = location.isPrefix ? location.key : location.key + "/"
        let key = upload.location.key
        let path = key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : key
        let matches = { (pattern: String) in fnmatch(pattern, path, 0) == 0 }
        return (include.isEmpty || include.contains(where: matches)) && !exclude.contains(where: matches)
    }
}
