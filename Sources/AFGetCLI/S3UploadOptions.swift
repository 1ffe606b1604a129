import AFGetKit
import ArgumentParser
import FoundationEssentials

/// How `afget upload` sends files to an `s3://` URL: whole or in parts, how many parts at once,
/// whether an interrupted upload is continued, and `-r` for a directory's files.
struct S3UploadOptions: ParsableArguments {
    @Flag(name: [.short, .long], help: "Upload every regular file below each directory, to the S3 prefix and its path below it.")
    var recursive = false

    @Option(
        name: [.short, .customLong("split")],
        help: ArgumentHelp("S3 parts sent at once.", valueName: "n"))
    var split = S3UploadSettings.defaultConnections

    @Option(
        name: .customLong("multipart-threshold"),
        help: ArgumentHelp(
            "Files this large or larger go to S3 in parts (K, M, G suffixes). (default: "
                + "\(ByteCount(bytes: S3PartPlan.defaultThreshold).typed))",
            valueName: "bytes"),
        transform: ByteCount.parse)
    var threshold = ByteCount(bytes: S3PartPlan.defaultThreshold)

    @Option(
        name: .customLong("part-size"),
        help: ArgumentHelp(
            "Bytes per part of an S3 multipart upload, 5M to 5G; grown when 10 000 parts would not hold the file. "
                + "(default: \(ByteCount(bytes: S3PartPlan.defaultPartSize).typed))",
            valueName: "bytes"),
        transform: ByteCount.parse)
    var partSize = ByteCount(bytes: S3PartPlan.defaultPartSize)

    @Flag(name: .long, help: "Abort an interrupted S3 multipart upload of the file and start over.")
    var restart = false

    func validate() throws {
        guard split >= 1, split <= 64 else { throw ValidationError("--split must be 1 to 64") }
        guard partSize.bytes >= S3PartPlan.smallestPart, partSize.bytes <= S3PartPlan.largestPart else {
            throw ValidationError("--part-size must be 5M to 5G (S3's limits for a part)")
        }
    }

    var settings: S3UploadSettings {
        var settings = S3UploadSettings()
        settings.threshold = threshold.bytes
        settings.partSize = partSize.bytes
        settings.connections = split
        settings.restart = restart
        settings.recordDirectory = S3UploadRecordStore.directory(environment: ProcessInfo.processInfo.environment)
        return settings
    }
}
