/// Which source wrote which bytes of a part file: runs of bytes, each with the source (its URL,
/// as messages show it) whose answer wrote it. The last write of a byte wins, so the runs say
/// who served what the file holds now. Kept as segments and attempts write, recorded in resume
/// data, and asked when a checksum fails (`FaultFinding`). A value: no file, no socket.
public struct SourceRanges: Sendable, Equatable {
    /// Bytes `start..<end`, written by `source`.
    public struct Run: Sendable, Equatable {
        public var source: String
        public var start: Int64
        public var end: Int64

        public init(source: String, start: Int64, end: Int64) {
            self.source = source
            self.start = start
            self.end = end
        }
    }

    /// In order of their start, none overlapping, neighbours of one source joined.
    public private(set) var runs: [Run] = []

    public init() {}

    /// Runs as recorded (resume data): written in order, so that later ones win.
    public init(_ runs: [Run]) {
        for run in runs { record(run.source, run.start..<run.end) }
    }

    /// `source` wrote `range`: what others wrote there is no longer in the file.
    public mutating func record(_ source: String, _ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        var kept: [Run] = []
        kept.reserveCapacity(runs.count + 2)
        for run in runs {
            if run.end <= range.lowerBound || run.start >= range.upperBound {
                kept.append(run)
                continue
            }
            if run.start < range.lowerBound {
                kept.append(Run(source: run.source, start: run.start, end: range.lowerBound))
            }
            if run.end > range.upperBound {
                kept.append(Run(source: run.source, start: range.upperBound, end: run.end))
            }
        }
        let position = kept.firstIndex { $0.start >= range.upperBound } ?? kept.endIndex
        kept.insert(Run(source: source, start: range.lowerBound, end: range.upperBound), at: position)
        runs = Self.joined(kept)
    }

    /// The part file was cut to `length` bytes: nothing past it was written by anyone.
    public mutating func truncate(to length: Int64) {
        runs = runs.compactMap { run in
            guard run.start < length else { return nil }
            return Run(source: run.source, start: run.start, end: min(run.end, length))
        }
    }

    /// The bytes `source` wrote, in order.
    public func ranges(of source: String) -> [Range<Int64>] {
        runs.filter { $0.source == source }.map { $0.start..<$0.end }
    }

    /// How many bytes `source` wrote.
    public func bytes(of source: String) -> Int64 {
        ranges(of: source).reduce(0) { $0 + Int64($1.count) }
    }

    /// The sources that wrote some of `range`, in the order of their first byte there.
    public func sources(in range: Range<Int64>) -> [String] {
        var seen: [String] = []
        for run in runs where run.start < range.upperBound && run.end > range.lowerBound && !seen.contains(run.source) {
            seen.append(run.source)
        }
        return seen
    }

    /// Every source that wrote some of the file, in the order of its first byte.
    public var sources: [String] {
        var seen: [String] = []
        for run in runs where !seen.contains(run.source) { seen.append(run.source) }
        return seen
    }

    /// Neighbouring runs of one source as one.
    private static func joined(_ runs: [Run]) -> [Run] {
        var joined: [Run] = []
        for run in runs {
            if let last = joined.last, last.source == run.source, last.end == run.start {
                joined[joined.count - 1].end = run.end
            } else {
                joined.append(run)
            }
        }
        return joined
    }
}
