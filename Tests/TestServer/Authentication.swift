import Foundation
import NIOHTTP1

/// `/auth/basic?user=U&password=P` and `/auth/digest?user=U&password=P`: whether the request's
/// Authorization answers the challenge (Basic, or Digest with MD5 and qop=auth per RFC 7616).
struct Authentication {
    static let realm = "afget-tests"
    static let nonce = "dcd98b7102dd2f0e8b11d0f600bfb0c093"

    let user: String
    private let password: String
    private let scheme: String
    private let authorization: String?
    private let method: String

    init(head: HTTPRequestHead, target: RequestTarget, scheme: String) {
        user = target.query["user"] ?? "user"
        password = target.query["password"] ?? "secret"
        self.scheme = scheme
        authorization = head.headers.first(name: "Authorization")
        method = head.method.rawValue
    }

    var header: String {
        scheme == "digest"
            ? "Digest realm=\"\(Self.realm)\", qop=\"auth\", nonce=\"\(Self.nonce)\", algorithm=MD5"
            : "Basic realm=\"\(Self.realm)\""
    }

    var isSatisfied: Bool {
        guard let authorization else { return false }
        if scheme != "digest" {
            return authorization == "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        guard authorization.hasPrefix("Digest ") else { return false }
        let fields = Self.fields(of: String(authorization.dropFirst(7)))
        guard fields["username"] == user, fields["realm"] == Self.realm, fields["nonce"] == Self.nonce,
            let uri = fields["uri"], let nc = fields["nc"], let cnonce = fields["cnonce"], let qop = fields["qop"],
            let response = fields["response"]
        else { return false }
        let ha1 = md5("\(user):\(Self.realm):\(password)")
        let ha2 = md5("\(method):\(uri)")
        return response == md5("\(ha1):\(Self.nonce):\(nc):\(cnonce):\(qop):\(ha2)")
    }

    private func md5(_ text: String) -> String {
        let digest = TestDigest.md5()
        digest.update(text.utf8)
        return digest.hex()
    }

    /// `a="x", b=y` → [a: x, b: y].
    private static func fields(of text: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ",")))
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                rest = rest.dropFirst()
                let close = rest.firstIndex(of: "\"") ?? rest.endIndex
                value = rest[..<close]
                rest = close < rest.endIndex ? rest[rest.index(after: close)...] : ""
            } else {
                let comma = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<comma]
                rest = rest[comma...]
            }
            fields[name] = String(value).trimmingCharacters(in: .whitespaces)
        }
        return fields
    }
}
