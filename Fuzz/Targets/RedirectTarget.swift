import AFGetRequest
import AFGetSession
import CurlCore

/// A redirect's Location, as libcurl resolved it: the rules that decide whether afget follows
/// it hold for any target (http and https only, never down from HTTPS, headers meant for one
/// origin kept from another, no password in a message).
enum RedirectTarget: FuzzTarget {
    static let name = "redirect"

    private static let from = try! CurlURL("https://files.example/dir/f.iso")
    private static let password = "hunter2"
    private static let schemes = ["http", "https", "HTTPS", "ftp", "file", ""]
    private static let statuses = [301, 302, 303, 307, 308]

    static func fuzz(_ input: [UInt8]) {
        guard input.count >= 2 else { return }
        let rest = Array(input.dropFirst(2)).text
        // The first byte chooses a scheme and whether a password rides along, the second the
        // status and the method: the rest is what the server wrote.
        let scheme = schemes[Int(input[0]) % schemes.count]
        let target = input[0] & 0x80 == 0 ? "\(scheme)://ann:\(password)@\(rest)" : rest
        let status = statuses[Int(input[1]) % statuses.count]
        let method = input[1] & 0x80 == 0 ? "GET" : "POST"
        let request = HTTPRequest(
            method: method, url: from,
            headers: [
                HTTPHeader(name: "X-Token", value: "t"), HTTPHeader(name: "Range", value: "bytes=5-", scope: .everyHop),
            ])
        let hops = Int(input[1] >> 3 & 0x0F)
        switch RedirectPolicy(maxRedirects: 10).next(after: request, status: status, target: target, redirectsSoFar: hops) {
        case .follow(let next):
            expect(hops < 10, "followed past the limit")
            expect(next.url.scheme == "https", "followed from https to \(next.url.scheme)")
            if next.url.origin != from.origin {
                expect(!next.headers.contains { $0.scope == .sameOriginOnly }, "a header went to \(next.url.origin)")
            }
            expect(next.headers.contains { $0.name == "Range" }, "a header for every hop was dropped")
            if status == 303 || (method == "POST" && status <= 302) {
                expect(next.method == "GET", "\(method) after \(status) stayed \(next.method)")
            } else {
                expect(next.method == method, "\(method) after \(status) became \(next.method)")
            }
        case .refuse(let failure):
            expect(!failure.message.isEmpty, "a refusal without a cause")
            expect(!failure.message.contains(password), "a refusal showing the password: \(failure.message)")
        case .deliver:
            expect(false, "delivered while following")
        }
    }
}
