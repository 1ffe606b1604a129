/// A Content-Range header value: `bytes 100-199/1000`, or `bytes */1000` on a 416.
public struct ContentRange: Sendable, Equatable {
    /// First and last byte of the part sent; nil for the unsatisfied form (`*/total`).
    public let first: Int64?
    public let last: Int64?
    /// The whole entity's length; nil when the server wrote `*`.
    public let total: Int64?

    public init(first: Int64?, last: Int64?, total: Int64?) {
        self.first = first
        self.last = last
        self.total = total
    }

    public init?(_ value: String) {
        let text = value.trimmingWhitespace()
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst("bytes ".count).trimmingWhitespace()
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        if halves[1] == "*" {
            total = nil
        } else {
            guard let length = Self.number(halves[1]) else { return nil }
            total = length
        }
        if halves[0] == "*" {
            guard total != nil else { return nil }
            first = nil
            last = nil
            return
        }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]),
            first <= last, total.map({ last < $0 }) ?? true
        else { return nil }
        self.first = first
        self.last = last
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}
