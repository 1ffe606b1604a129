import AFGetSupport

extension ResponseHead {
    /// The failure a final response stands for when it is not what was asked for: an
    /// authentication failure for 401/407 after credentials were sent, an HTTP error for other
    /// 4xx/5xx, a protocol failure for anything else (a redirect not followed or without a
    /// Location, a 1xx).
    public func failure(sentCredentials: Bool) -> TransferFailure {
        TransferFailure(.response(refusal(sentCredentials: sentCredentials)))
    }

    /// What the response says in place of the file, as `failure(sentCredentials:)` tells it.
    func refusal(sentCredentials: Bool) -> ResponseFailure {
        if sentCredentials && (status == 401 || status == 407) {
            return .credentialsRefused(status: status, phrase: reason)
        }
        if (400..<600).contains(status) {
            return .httpStatus(status, phrase: reason)
        }
        if let location = redirectLocation {
            return .redirectNotFollowed(status: status, phrase: reason, location: location)
        }
        if isRedirect {
            return .redirectWithoutLocation(status: status, phrase: reason)
        }
        return .unexpectedStatus(status: status, phrase: reason)
    }
}
