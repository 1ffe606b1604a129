/// What an upload to S3 is told beyond the exchange's options.
public struct S3UploadSettings: Sendable, Equatable {
    /// Files this large or larger go in parts.
    public var threshold = S3PartPlan.defaultThreshold
    public var partSize = S3PartPlan.defaultPartSize
    /// Parts in flight at once (`-s N`).
    public var connections = S3UploadSettings.defaultConnections
    /// `--restart`: an interrupted upload of the file is aborted, not continued.
    public var restart = false
    /// Where multipart uploads' records are kept; nil: nowhere (no HOME), so none continues.
    public var recordDirectory: String?

    /// As many parts at once as make a single connection's latency matter little.
    public static let defaultConnections = 4

    public init() {}
}
