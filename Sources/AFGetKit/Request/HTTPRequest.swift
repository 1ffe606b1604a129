import CurlCore

/// A request as the task manager sends it: method, URL, headers and body source.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: CurlURL
    public var headers: [HTTPHeader]
    public var body: RequestBody

    public init(method: String = "GET", url: CurlURL, headers: [HTTPHeader] = [], body: RequestBody = .none) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// Where an upload's bytes come from.
public enum RequestBody: Sendable, Equatable {
    case none
    case bytes([UInt8])
    case file(path: String)
}
