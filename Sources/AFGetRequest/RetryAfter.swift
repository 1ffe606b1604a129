import AFGetSupport
import CurlCore

/// A server's Retry-After (RFC 9110 §10.2.3): read by the retry policy for the item it answered,
/// and by the curl thread, which holds the origin's other requests at the gate until then.
public enum RetryAfter {
    /// The longest wait afget makes as a server asks; a longer one fails the item, saying when.
    public static let longestWait = 300.0

    /// The value as seconds from `now`: delay-seconds or an HTTP date; nil when it is neither.
    public static func seconds(_ value: String, now: Int64) -> Double? {
        let text = value.trimmingWhitespace()
        // delay-seconds is digits alone: Int64 would also take "-0" and "+5".
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int64(text) {
            return Double(seconds)
        }
        guard let date = HTTPDate.seconds(from: text) else { return nil }
        return Double(max(0, date - now))
    }
}

extension RetryAfter {
    /// Seconds until a server's quota resets, from the RateLimit header fields some servers send
    /// with a 429 or 503 instead of Retry-After: `RateLimit-Reset: 30`, the draft's structured
    /// `RateLimit: "default";r=0;t=30`, or its earlier `RateLimit: limit=100, remaining=0, reset=30`.
    static func rateLimitReset(in head: ResponseHead) -> Int64? {
        if let reset = head.value(of: "RateLimit-Reset"), let seconds = digits(reset) { return seconds }
        guard let field = head.value(of: "RateLimit") else { return nil }
        for parameter in field.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = String(pair[0]).trimmingWhitespace().lowercased()
            if key == "t" || key == "reset", let seconds = digits(String(pair[1])) { return seconds }
        }
        return nil
    }

    private static func digits(_ text: String) -> Int64? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(trimmed)
    }
}

extension ResponseHead {
    /// How long the server asks to be left alone, as it says it: Retry-After, else, for a 429 or
    /// 503, the seconds until its RateLimit quota resets.
    public var serverWait: String? {
        if let value = value(of: "Retry-After") { return value }
        guard status == 429 || status == 503 else { return nil }
        return RetryAfter.rateLimitReset(in: self).map { String($0) }
    }
}
