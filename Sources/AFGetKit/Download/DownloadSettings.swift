/// How every item of a run is downloaded.
public struct DownloadSettings: Sendable {
    public var onExists: OnExistsPolicy
    /// User headers (`-H`), sent to the URL's own origin only.
    public var headers: [HTTPHeader]
    public var transfer: TransferOptions

    public init(onExists: OnExistsPolicy = .skip, headers: [HTTPHeader] = [], transfer: TransferOptions = TransferOptions()) {
        self.onExists = onExists
        self.headers = headers
        self.transfer = transfer
    }
}
