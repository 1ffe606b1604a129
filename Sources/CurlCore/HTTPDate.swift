import CCurl
import Glibc

/// HTTP dates ("Wed, 21 Oct 2015 07:28:00 GMT", and the older forms) as seconds since 1970.
public enum HTTPDate {
    /// The form every current server sends is read directly; anything else goes to libcurl's
    /// own date parser, which takes every form curl accepts (it tries each word against a dozen
    /// patterns with sscanf: a response's dates cost more than its headers otherwise).
    public static func seconds(from text: String) -> Int64? {
        if let seconds = fixdateSeconds(Array(text.utf8)) { return seconds }
        CurlRuntime.initialize()
        let value = curl_getdate(text, nil)
        return value < 0 ? nil : Int64(value)
    }

    /// "Sun, 06 Nov 1994 08:49:37 GMT", exactly (RFC 9110 §5.6.7); nil for anything else.
    static func fixdateSeconds(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == space, bytes[7] == space,
            bytes[11] == space, bytes[16] == space, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"),
            bytes[25] == space, bytes[26...].elementsEqual("GMT".utf8),
            let day = number(bytes[5..<7]), let year = number(bytes[12..<16]), let hour = number(bytes[17..<19]),
            let minute = number(bytes[20..<22]), let second = number(bytes[23..<25]),
            let month = monthNames.firstIndex(where: { $0.elementsEqual(bytes[8..<11]) }),
            (1...31).contains(day), year >= 1970, hour < 24, minute < 60, second <= 60
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int64(timegm(&parts))
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static let space = UInt8(ascii: " ")
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let monthNames = months.map { Array($0.utf8) }

    /// The IMF-fixdate form, "Wed, 21 Oct 2015 07:28:00 GMT" (RFC 9110 §5.6.7).
    public static func format(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
