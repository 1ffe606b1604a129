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
