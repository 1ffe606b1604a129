import AFGetSupport

extension ResponseHead {
    /// The failure a final response stands for when it is not what was asked for: an
    /// authentication failure for 401/407 after credentials were sent, an HTTP error for other
    /// 4xx/5xx, a protocol failure for anything else (a redirect not followed or without a
    /// Location, a 1xx).
    public func failure(sentCredentials: Bool) -> TransferFailure {
        let statusLine = "HTTP \(status)\(reason.isEmpty ? "" : " " + reason)"
        if sentCredentials && (status == 401 || status == 407) {
            return TransferFailure(.response(.credentialsRefused(status: status)), "\(statusLine): the credentials were refused")
        }
        if (400..<600).contains(status) {
            return TransferFailure(.response(.httpStatus(status)), statusLine)
        }
        if let location = redirectLocation {
            return TransferFailure(
                .protocolViolation,
                "\(statusLine): redirect to \(TerminalText.clean(location)) not followed (--no-follow)")
        }
        if isRedirect {
            return TransferFailure(.protocolViolation, "\(statusLine): a redirect without a Location to follow")
        }
        return TransferFailure(.protocolViolation, "unexpected final response \(statusLine)")
    }
}
