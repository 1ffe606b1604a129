import AFGetRequest
import AFGetSupport

/// An S3 store's error body (`<Error><Code>NoSuchKey</Code><Message>…</Message></Error>`),
/// read into the failure a status alone would give less of: the code decides the class (a
/// refused credential is exit 6, as a 401 is) and code and message are the failure's words.
enum S3ErrorDocument {
    /// Bodies larger than this are no error document of S3's.
    static let largestBody = 64 << 10

    /// The failure `head` and its `body` stand for; nil when the body is no S3 error.
    static func failure(_ head: ResponseHead, body: [UInt8]) -> TransferFailure? {
        guard body.count <= largestBody, let xml = S3XML(body), let root = xml.root(named: "Error"),
            let code = root.text(of: "Code")?.trimmingWhitespace(), !code.isEmpty
        else { return nil }
        let message = root.text(of: "Message")?.trimmingWhitespace() ?? ""
        return TransferFailure(.response(.storeError(status: head.status, phrase: head.reason, code: code, message: message)))
    }
}
