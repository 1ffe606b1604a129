import AFGetSupport

/// Judges a final response as AFHTTPResponseSerializer does: its status must be one of the
/// acceptable codes and, when types are given, its Content-Type one of the acceptable types.
public struct ResponseSerializer: Sendable, Equatable {
    public var acceptableStatusCodes: [ClosedRange<Int>]
    /// Media types such as `application/json`, `text/*` or `*/*`; empty accepts any.
    public var acceptableContentTypes: [String]

    public init(acceptableStatusCodes: [ClosedRange<Int>] = [200...299], acceptableContentTypes: [String] = []) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Parses `200-299,304`.
    public static func parseStatusCodes(_ text: String) throws(TransferFailure) -> [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = piece.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingWhitespace()) }
            guard (1...2).contains(bounds.count), let low = bounds.first!, let high = bounds.last!,
                (100...999).contains(low), (100...999).contains(high), low <= high
            else {
                throw TransferFailure(.input(.acceptStatusMalformed(text)))
            }
            ranges.append(low...high)
        }
        return ranges
    }

    /// Checks `--accept-type` values: each a media type, `type/subtype` (either may be `*`).
    /// An empty or bare word would match no response, so every request would fail.
    public static func checkContentTypes(_ patterns: [String]) throws(TransferFailure) {
        for pattern in patterns {
            let parts = mediaType(pattern).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) else {
                throw TransferFailure(.input(.acceptTypeMalformed(pattern)))
            }
        }
    }

    /// The failure the response stands for, or nil when it is acceptable.
    public func validate(_ head: ResponseHead, sentCredentials: Bool) -> TransferFailure? {
        guard acceptableStatusCodes.contains(where: { $0.contains(head.status) }) else {
            let refusal = head.refusal(sentCredentials: sentCredentials)
            // A status outside the acceptable set is an HTTP error even when it is not 4xx/5xx.
            let isProtocolViolation = FailureReason.response(refusal).failureClass == .protocolViolation
            return TransferFailure(.response(isProtocolViolation ? .statusNotAccepted(refusal) : refusal))
        }
        guard !acceptableContentTypes.isEmpty else { return nil }
        let type = head.value(of: "Content-Type").map(Self.mediaType) ?? ""
        guard acceptableContentTypes.contains(where: { Self.matches(type, $0) }) else {
            return TransferFailure(.response(.typeNotAccepted(type: type, accepted: acceptableContentTypes)))
        }
        return nil
    }

    /// `text/html; charset=utf-8` → `text/html`.
    package static func mediaType(_ header: String) -> String {
        String(header.prefix { $0 != ";" }).trimmingWhitespace().lowercased()
    }

    private static func matches(_ type: String, _ pattern: String) -> Bool {
        let pattern = mediaType(pattern)
        if pattern == "*/*" || pattern == type { return true }
        if pattern.hasSuffix("/*") { return type.hasPrefix(String(pattern.dropLast())) }
        return false
    }
}
