import CCurl
import Glibc

/// HTTP dates ("Wed, 21 Oct 2015 07:28:00 GMT", and the older forms) as seconds since 1970,
/// parsed by libcurl's own date parser.
public enum HTTPDate {
    public static func seconds(from text: String) -> Int64? {
        CurlRuntime.initialize()
        let value = curl_getdate(text, nil)
        return value < 0 ? nil : Int64(value)
    }

    /// The IMF-fixdate form, "Wed, 21 Oct 2015 07:28:00 GMT" (RFC 9110 §5.6.7).
    public static func format(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
