/// A stretch of a file downloaded over one connection: bytes `start..<end`, of which the first
/// `done` are in the part file.
public struct Segment: Sendable, Equatable {
    public var start: Int64
    public var end: Int64
    public var done: Int64

    public init(start: Int64, end: Int64, done: Int64 = 0) {
        self.start = start
        self.end = end
        self.done = done
    }

    /// Where this segment's next byte goes.
    public var position: Int64 { start + done }
    public var remaining: Int64 { max(0, end - position) }
    public var isComplete: Bool { position >= end }

    /// Where this segment has got to when its transfer has taken the body up to `reached`
    /// (bytes written count in `done`; taken ones may still be buffered): never behind what is
    /// written, never past the end.
    public func position(reachedAt reached: Int64) -> Int64 {
        min(end, max(position, reached))
    }
}

extension Collection<Segment> {
    /// Bytes in the part file across these segments.
    public var bytesDone: Int64 { reduce(0) { $0 + $1.done } }

    /// The bytes these segments hold, in order, neighbouring ones joined (a piece across two
    /// segments is held once both hold their part of it).
    public var heldRanges: [Range<Int64>] {
        var held: [Range<Int64>] = []
        for segment in sorted(by: { $0.start < $1.start }) where segment.done > 0 {
            if let last = held.last, last.upperBound >= segment.start {
                held[held.count - 1] = last.lowerBound..<Swift.max(last.upperBound, segment.position)
            } else {
                held.append(segment.start..<segment.position)
            }
        }
        return held
    }
}

/// How a file is cut into segments, and re-cut while it downloads.
public enum SegmentPlan {
    /// A file of `length` bytes whose first `offset` are held: that prefix as one complete
    /// segment, and the rest in up to `connections` equal segments of at least `minimumSize`.
    public static func initial(length: Int64, from offset: Int64, connections: Int, minimumSize: Int64) -> [Segment] {
        let held = offset > 0 ? [Segment(start: 0, end: offset, done: offset)] : []
        let span = length - offset
        guard span > 0 else { return held }
        let count = Int(max(1, min(Int64(connections), span / max(1, minimumSize))))
        return held
            + (0..<count).map { index in
                Segment(start: offset + span * Int64(index) / Int64(count), end: offset + span * Int64(index + 1) / Int64(count))
            }
    }

    /// A file of `length` bytes whose `first` range is being received: the bytes before it as
    /// one complete segment, that range as a segment, and the rest in up to `connections - 1`
    /// equal segments of at least `minimumSize`.
    public static func afterFirstRange(
        _ first: Range<Int64>, length: Int64, connections: Int, minimumSize: Int64
    ) -> [Segment] {
        let held = first.lowerBound > 0 ? [Segment(start: 0, end: first.lowerBound, done: first.lowerBound)] : []
        let rest = initial(length: length, from: first.upperBound, connections: max(1, connections - 1), minimumSize: minimumSize)
        return held + [Segment(start: first.lowerBound, end: min(first.upperBound, length))]
            + rest.filter { $0.start >= first.upperBound }
    }

    /// The segment to split when a connection is free: of the `running` ones, each with where
    /// its transfer has reached (ahead of `done`, which counts only bytes written), the one
    /// with the most left, if at least two minimum sizes are left; and where the new segment
    /// starts (half way through what is left).
    public static func split(
        _ segments: [Segment], running: [(index: Int, reached: Int64)],
        minimumSize: Int64
    ) -> (index: Int, at: Int64)? {
        func position(_ candidate: (index: Int, reached: Int64)) -> Int64 {
            segments[candidate.index].position(reachedAt: candidate.reached)
        }
        func left(_ candidate: (index: Int, reached: Int64)) -> Int64 {
            segments[candidate.index].end - position(candidate)
        }
        guard let largest = running.max(by: { left($0) < left($1) }) else { return nil }
        let remaining = left(largest)
        guard remaining >= 2 * max(1, minimumSize) else { return nil }
        return (largest.index, position(largest) + remaining / 2)
    }

    /// `segments` with `range`, bytes they hold, to be fetched again (a piece that failed its
    /// hash): the segments around it keep what they hold before and after it, and the range
    /// becomes a segment of its own with nothing done.
    public static func reopening(_ range: Range<Int64>, in segments: [Segment]) -> [Segment] {
        var reopened: [Segment] = [Segment(start: range.lowerBound, end: range.upperBound)]
        for segment in segments {
            guard segment.start < range.upperBound && segment.end > range.lowerBound else {
                reopened.append(segment)
                continue
            }
            if segment.start < range.lowerBound {
                reopened.append(
                    Segment(
                        start: segment.start, end: range.lowerBound, done: min(segment.done, range.lowerBound - segment.start)))
            }
            if segment.end > range.upperBound {
                reopened.append(
                    Segment(start: range.upperBound, end: segment.end, done: max(0, segment.position - range.upperBound)))
            }
        }
        return reopened.sorted { $0.start < $1.start }
    }

    /// Bytes held from the start of the file without a gap: what one connection could continue from.
    public static func contiguousPrefix(_ segments: [Segment]) -> Int64 {
        var prefix: Int64 = 0
        for segment in segments.sorted(by: { $0.start < $1.start }) {
            guard segment.start <= prefix else { break }
            prefix = max(prefix, segment.position)
            if !segment.isComplete { break }
        }
        return prefix
    }
}
