import CCurl

/// Process-wide libcurl set-up. `curl_global_init` is not thread-safe: it runs exactly once,
/// guarded by Swift's lazy static initialisation, and the program calls it before starting any
/// thread that uses libcurl (every libcurl entry point here calls it too, for tests).
public enum CurlRuntime {
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    /// Makes sure libcurl is initialised; cheap after the first call.
    public static func initialize() {
        precondition(initialized, "curl_global_init failed")
    }

    /// libcurl's own version string, e.g. "libcurl/7.88.1 OpenSSL/3.0.11 ...".
    public static var versionDescription: String {
        String(cString: curl_version())
    }
}
