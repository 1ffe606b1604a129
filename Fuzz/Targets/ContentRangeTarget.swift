import AFGetRequest

/// A 206's or 416's Content-Range, which decides where received bytes go in the part file.
enum ContentRangeTarget: FuzzTarget {
    static let name = "content-range"

    static func fuzz(_ input: [UInt8]) {
        let value = input.text
        guard let range = ContentRange(value) else { return }
        if let first = range.first, let last = range.last {
            expect(first >= 0 && first <= last, "first \(first) after last \(last)")
            if let total = range.total { expect(last < total, "last \(last) beyond the length \(total)") }
        } else {
            expect(range.first == nil && range.last == nil, "one bound without the other")
            expect(range.total != nil, "neither a range nor a length")
        }
        if let total = range.total { expect(total >= 0, "a negative length") }
        // Written back in its canonical form, it reads as the same range.
        let span = range.first.map { "\($0)-\(range.last!)" } ?? "*"
        let canonical = "bytes \(span)/\(range.total.map(String.init) ?? "*")"
        expect(ContentRange(canonical) == range, "\(canonical) does not read back as itself")
        // Only digits make a number: no sign.
        expect(!value.contains("+") && !value.contains("-\(range.last.map(String.init) ?? "")-"), "a sign accepted in \(value)")
    }
}
