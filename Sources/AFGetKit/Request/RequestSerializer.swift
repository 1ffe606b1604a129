import CurlCore

/// Turns what the user typed into a request value, rejecting what cannot be sent.
/// (AFHTTPRequestSerializer's role; parameter encoding arrives with `afget request`.)
public struct RequestSerializer: Sendable {
    public var headers: [HTTPHeader]

    public init(headers: [HTTPHeader] = []) {
        self.headers = headers
    }

    public func request(method: String = "GET", url string: String, body: RequestBody = .none)
        throws(ItemFailure) -> HTTPRequest
    {
        let url = try Self.parseURL(string)
        return HTTPRequest(method: method, url: url, headers: headers, body: body)
    }

    /// An http or https URL, or a usage failure naming the URL and what is wrong with it.
    public static func parseURL(_ string: String) throws(ItemFailure) -> CurlURL {
        let url: CurlURL
        do {
            url = try CurlURL(string)
        } catch {
            switch error {
            case .malformed(let reason):
                throw ItemFailure(item: string, TransferFailure(.usage, "malformed URL: \(reason)"))
            }
        }
        guard url.isHTTP else {
            throw ItemFailure(
                item: string, TransferFailure(.usage, "unsupported scheme \"\(url.scheme)\" (http and https only)"))
        }
        return url
    }
}
