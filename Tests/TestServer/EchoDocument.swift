import Foundation
import NIOHTTP1

/// What `/echo` answers: the request as received, as JSON — method, target, query string,
/// headers (names lowercased, repeated ones joined by ", "), the body as text (its first MiB),
/// its length and SHA-256.
struct EchoDocument {
    let bytes: [UInt8]

    init(head: HTTPRequestHead, body: [UInt8], bodyCount: Int, bodySHA256: String) {
        var headers: [String: String] = [:]
        for header in head.headers {
            let name = header.name.lowercased()
            headers[name] = headers[name].map { $0 + ", " + header.value } ?? header.value
        }
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let document: [String: Any] = [
            "method": head.method.rawValue,
            "uri": head.uri,
            "path": String(parts[0]),
            "query": parts.count > 1 ? String(parts[1]) : "",
            "headers": headers,
            "body": String(decoding: body, as: UTF8.self),
            "bodyLength": bodyCount,
            "bodySHA256": bodySHA256,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        bytes = Array(data)
    }
}
