import CurlCore

public enum AFGetVersion {
    public static let current = "0.1.0"

    /// What `--version` prints: afget's version and the libcurl it runs on, with libcurl's own
    /// libraries (TLS, compression), which decide much of what a transfer can do.
    public static var withLibraries: String {
        "\(current) (\(CurlRuntime.versionDescription))"
    }
}
