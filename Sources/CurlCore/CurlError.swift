import CCurl

/// A libcurl result code together with the most specific message libcurl gave for it.
public struct CurlError: Error, Sendable, Equatable {
    public let code: Int
    public let message: String

    public init(code: CURLcode, detail: String = "") {
        self.code = Int(code.rawValue)
        let generic = String(cString: curl_easy_strerror(code))
        self.message = detail.isEmpty ? generic : detail
    }

    public var curlCode: CURLcode { CURLcode(UInt32(code)) }
}

/// A failed `curl_easy_setopt` is a programming error (a wrong type or an option this libcurl
/// lacks), so it stops with a message instead of being silently ignored.
@inline(__always)
func check(_ code: CURLcode, _ what: @autoclosure () -> String) {
    guard code == CURLE_OK else {
        fatalError("libcurl rejected \(what()): \(String(cString: curl_easy_strerror(code)))")
    }
}
