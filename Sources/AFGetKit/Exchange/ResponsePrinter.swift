import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport

/// What `afget request` prints of a response: optionally the status line and headers, then the
/// body — JSON indented (and coloured on a terminal) when asked or when a terminal shows it,
/// any other body byte for byte.
public struct ResponsePrinter: Sendable {
    public enum Formatting: String, Sendable, CaseIterable {
        /// Pretty JSON on a terminal, bytes untouched otherwise.
        case auto
        case pretty
        case raw
    }

    public var formatting: Formatting
    public var includesHead: Bool

    public init(formatting: Formatting = .auto, includesHead: Bool = false) {
        self.formatting = formatting
        self.includesHead = includesHead
    }

    /// The bytes to print for `response` on a destination that is (or is not) a terminal.
    public func render(_ response: TaskResponse, toTerminal: Bool, colored: Bool) -> [UInt8] {
        var output: [UInt8] = []
        if includesHead {
            let head = response.head
            // The reason and headers are the server's text: on a terminal, cleaned as every line
            // for people is; in a pipe, as they came.
            var lines = ["\(head.version) \(head.status)\(head.reason.isEmpty ? "" : " " + head.reason)"]
            lines += head.headers.map { header in "\(header.name): \(header.value)" }
            let text = lines.map { (toTerminal ? TerminalText.clean($0) : $0) + "\n" }.joined()
            output += Array((text + "\n").utf8)
        }
        let pretty = formatting == .pretty || (formatting == .auto && toTerminal && Self.isJSON(response.head))
        if pretty, let value = try? JSONText.parse(response.body) {
            output += Array((JSONText.pretty(value, colored: colored) + "\n").utf8)
        } else {
            output += response.body
        }
        return output
    }

    static func isJSON(_ head: ResponseHead) -> Bool {
        guard let type = head.value(of: "Content-Type").map(ResponseSerializer.mediaType) else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }
}
