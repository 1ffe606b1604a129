import AFGetRequest
import AFGetSupport
@testable import AFGetSession

/// A response's header block as libcurl hands it over, a line at a time (`HeaderLine`), put
/// together as the transfer does into a `ResponseHead`, whose lengths, codings and redirect
/// the engine then trusts.
enum HeaderLinesTarget: FuzzTarget {
    static let name = "header-lines"

    static func fuzz(_ input: [UInt8]) {
        var head = ResponseHead()
        for rawLine in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let bytes = Array(rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine)
            let line = bytes.withUnsafeBytes { HeaderLine($0) }
            switch line {
            case .status(let version, let code, let reason):
                expect(bytes.starts(with: "HTTP/".utf8), "a status line that does not start with HTTP/")
                expect((0...999_999_999).contains(code), "status code \(code) out of range")
                expect(!version.contains(" ") && !version.contains("\t"), "a version with a blank: \(version)")
                expect(reason == trimmed(reason), "a reason with outer blanks")
                head = ResponseHead(version: version, status: code, reason: reason)
            case .end:
                expect(bytes.isEmpty, "an end of headers that is not an empty line")
            case .continuation(let more):
                expect(bytes.first == UInt8(ascii: " ") || bytes.first == UInt8(ascii: "\t"), "a continuation without a blank")
                expect(more == trimmed(more), "a continuation with outer blanks")
                head.continueLastValue(with: more)
            case .field(let name, let value):
                expect(!name.contains(":"), "a field name holding a colon: \(name)")
                expect(value == trimmed(value), "a field value with outer blanks")
                // No byte is lost or replaced: the name is exactly the bytes before the colon.
                let nameBytes = Array(bytes.prefix { $0 != UInt8(ascii: ":") })
                let latin1 =
                    name.unicodeScalars.allSatisfy { $0.value < 0x100 } ? name.unicodeScalars.map { UInt8($0.value) } : []
                expect(Array(name.utf8) == nameBytes || latin1 == nameBytes, "the name's bytes changed: \(name)")
                head.add(name: name, value: value)
            case .other:
                expect(!bytes.contains(UInt8(ascii: ":")) || bytes.starts(with: "HTTP/".utf8), "a field taken for no field")
            }
        }
        check(head)
    }

    /// What the engine reads from a head holds whatever the fields said.
    private static func check(_ head: ResponseHead) {
        let lengthHeaders = head.headers.filter { $0.name.lowercased() == "content-length" }
        if let length = head.contentLength {
            expect(length >= 0, "a negative Content-Length \(length)")
            expect(head.contentLengthProblem == nil, "a length and a problem at once")
            expect(lengthHeaders.allSatisfy { $0.value.contains(String(length)) }, "a length no header gave")
        } else if !lengthHeaders.isEmpty {
            let problem = head.contentLengthProblem.map { FailureReason.response($0).words } ?? ""
            expect(problem.contains("Content-Length"), "unusable Content-Length without a cause naming it")
        }
        for coding in head.contentEncodings {
            expect(!coding.isEmpty && coding == coding.lowercased() && coding != "identity", "coding \"\(coding)\"")
            expect(coding == trimmed(coding), "a coding with outer blanks")
        }
        if let location = head.redirectLocation {
            expect(head.isRedirect && !trimmed(location).isEmpty, "a redirect location where none can be")
        }
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
