import AFGetSupport

/// A checksum that failed on a file from several sources: which source is at fault. One source
/// is suspected at a time; the bytes it wrote (`SourceRanges`) are fetched again from the
/// others and the whole file is checked again. A match convicts the suspect (it is dropped); a
/// mismatch clears it, and the next is suspected. Each source is suspected once, so it ends:
/// with a culprit, or with none left to suspect (no source gives bytes that match). A value:
/// the job fetches and checks.
struct FaultFinding {
    /// How the first check failed: what the item fails with when no source is found at fault.
    let mismatch: DigestMismatch
    /// The source whose bytes are being fetched again.
    private(set) var suspect: String?
    /// Sources suspected so far, the current one included.
    private(set) var suspected: [String] = []

    init(after mismatch: DigestMismatch) {
        self.mismatch = mismatch
    }

    /// Suspects the next source: of those that wrote bytes of the file and were not suspected
    /// yet, the one that wrote fewest (the cheapest to fetch again), as long as one of `usable`
    /// (the sources not dropped) is another source to fetch them from. Nil when none is left.
    mutating func suspectNext(in ranges: SourceRanges, usable: [String]) -> String? {
        let candidates = ranges.sources.filter { source in
            !suspected.contains(source) && usable.contains { $0 != source }
        }
        // `min` keeps the first of equals: the order of the file's bytes.
        suspect = candidates.min { ranges.bytes(of: $0) < ranges.bytes(of: $1) }
        if let suspect { suspected.append(suspect) }
        return suspect
    }

    /// The file checked again after the suspect's bytes came from elsewhere: a match convicts
    /// it (returned, to be dropped); a mismatch clears it.
    mutating func checked(matches: Bool) -> String? {
        defer { suspect = nil }
        return matches ? suspect : nil
    }

    /// The segments of a file of `length` bytes that fetch `ranges` again: those ranges empty,
    /// the bytes between them held (complete segments), in order.
    static func plan(refetching ranges: [Range<Int64>], length: Int64) -> [Segment] {
        var segments: [Segment] = []
        var position: Int64 = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let start = max(position, range.lowerBound)
            let end = min(length, range.upperBound)
            guard start < end else { continue }
            if position < start { segments.append(Segment(start: position, end: start, done: start - position)) }
            segments.append(Segment(start: start, end: end))
            position = end
        }
        if position < length { segments.append(Segment(start: position, end: length, done: length - position)) }
        return segments
    }
}
