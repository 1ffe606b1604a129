import CCurl

/// HTTP dates ("Wed, 21 Oct 2015 07:28:00 GMT", and the older forms) as seconds since 1970,
/// parsed by libcurl's own date parser.
public enum HTTPDate {
    public static func seconds(from text: String) -> Int64? {
        let value = curl_getdate(text, nil)
        return value < 0 ? nil : Int64(value)
    }
}
