/// Human-readable sizes, speeds and durations, in binary units as curl and wget print them.
public enum Formatting {
    public static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        return "\(oneDecimal(value)) \(units[unit])"
    }

    public static func speed(_ bytesPerSecond: Double) -> String {
        bytes(Int64(bytesPerSecond.isFinite ? max(0, bytesPerSecond) : 0)) + "/s"
    }

    /// "0:42", "12:05", "1:02:03"; at most "99:59:59" (a bar keeps room for that and no more).
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds.rounded() < 360_000 else { return "--:--" }
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let paddedSeconds = secs < 10 ? "0\(secs)" : "\(secs)"
        if hours > 0 {
            return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(paddedSeconds)"
        }
        return "\(minutes):\(paddedSeconds)"
    }

    /// "3.2 s" for short spans, else the clock form.
    public static func elapsed(_ seconds: Double) -> String {
        seconds < 60 ? "\(oneDecimal(seconds)) s" : duration(seconds)
    }

    /// How long something took, measured: "340 ms" below a second, where tenths of a second
    /// said "0.0 s" of a 19 MiB download; else as `elapsed`. (A wait afget is told in seconds,
    /// `--retry-delay 0.2`, stays in seconds: `elapsed`.)
    public static func took(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return elapsed(seconds) }
        let milliseconds = Int((seconds * 1000).rounded())
        if milliseconds >= 1000 { return elapsed(seconds) }
        return milliseconds == 0 ? "< 1 ms" : "\(milliseconds) ms"
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    public static func percent(_ done: Int64, of total: Int64) -> Int {
        total > 0 ? Int(min(100, done * 100 / total)) : 0
    }
}
