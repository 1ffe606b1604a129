import AFGetSupport

/// Speed over a sliding window of recent samples, so the figure follows changes quickly
/// without jumping on every sample.
public struct SpeedEstimator: Sendable {
    private var samples: [(time: Double, bytes: Int64)] = []
    private let window: Double

    public init(window: Double = 5) {
        self.window = window
    }

    public mutating func add(bytes: Int64, at time: Double) {
        samples.append((time, bytes))
        while let first = samples.first, time - first.time > window, samples.count > 2 {
            samples.removeFirst()
        }
    }

    /// Bytes per second across the window; 0 until two samples span some time.
    public var bytesPerSecond: Double {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return 0 }
        return Double(last.bytes - first.bytes) / (last.time - first.time)
    }

    /// Seconds left at the current speed, or nil when it cannot be told.
    public func secondsRemaining(bytes: Int64, total: Int64?) -> Double? {
        Self.secondsRemaining(bytes: bytes, total: total, speed: bytesPerSecond)
    }

    /// Seconds left for `total - bytes` at `speed` bytes per second, or nil when it cannot be told.
    public static func secondsRemaining(bytes: Int64, total: Int64?, speed: Double) -> Double? {
        guard let total, speed > 0, total >= bytes else { return nil }
        return Double(total - bytes) / speed
    }
}

extension Formatting {
    /// "ETA 0:42", or nil when the total or the speed is unknown.
    public static func eta(bytes: Int64, total: Int64?, speed: Double) -> String? {
        SpeedEstimator.secondsRemaining(bytes: bytes, total: total, speed: speed).map { "ETA " + duration($0) }
    }
}
