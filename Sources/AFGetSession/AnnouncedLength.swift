import AFGetRequest
import AFGetSupport

/// The body length a request's own headers announce. A user's `Content-Length` goes out as
/// given, so the body must be sent at exactly that length: left to itself libcurl frames a
/// body of unknown length (standard input) as chunked beside it, and sends a file at whatever
/// size it has.
enum AnnouncedLength {
    /// The length every `Content-Length` header says (nil when none does), or a usage failure
    /// when one is not a count, two disagree, or chunked framing is asked for as well.
    static func fromHeaders(_ headers: [HTTPHeader]) throws(TransferFailure) -> Int64? {
        var length: Int64?
        for header in headers where header.name.isSameHeaderName(as: "Content-Length") && !header.value.isEmpty {
            guard header.value.utf8.count <= 18, header.value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Int64(header.value)
            else {
                throw TransferFailure(.input(.contentLengthNotCount(header.value)))
            }
            if let length, length != value {
                throw TransferFailure(.input(.contentLengthTwice(length, value)))
            }
            length = value
        }
        if length != nil, headers.contains(where: { $0.name.isSameHeaderName(as: "Transfer-Encoding") && !$0.value.isEmpty }) {
            // RFC 9112 §6.2: a sender must not send both.
            throw TransferFailure(.input(.contentLengthWithTransferEncoding))
        }
        return length
    }
}
