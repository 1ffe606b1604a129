import AFGetSupport

/// The figures of a bar row, each right-aligned in the width of its widest form: a row whose
/// speed goes from "99.9 KiB/s" to "100.0 KiB/s", or whose ETA gains an hour's digit, keeps
/// every column where it was, and the rows of a block line up figure under figure.
enum BarFields {
    /// "100%".
    static let percentWidth = 4
    /// "1023.9 MiB": below 1024 of a unit, one decimal (8 EiB, Int64's end, is "8192.0 PiB").
    static let sizeWidth = 10
    /// "1023.9 MiB/1023.9 MiB".
    static let amountWidth = 2 * sizeWidth + 1
    /// "1023.9 KiB/s".
    static let speedWidth = sizeWidth + 2
    /// "12:34:56": `Formatting.duration` gives up past 99 hours.
    static let durationWidth = 8
    /// "ETA 12:34:56", and "ETA --:--" while it cannot be told.
    static let etaWidth = durationWidth + 4

    static func percent(_ bytes: Int64, of total: Int64) -> String {
        padded("\(Formatting.percent(bytes, of: total))%", to: percentWidth)
    }

    static func size(_ bytes: Int64) -> String {
        padded(Formatting.bytes(bytes), to: sizeWidth)
    }

    /// "  12.3 MiB/  27.0 MiB".
    static func amount(_ bytes: Int64, of total: Int64) -> String {
        size(bytes) + "/" + size(total)
    }

    static func speed(_ bytesPerSecond: Double) -> String {
        padded(Formatting.speed(bytesPerSecond), to: speedWidth)
    }

    /// The time left, "--:--" when it cannot be told.
    static func duration(bytes: Int64, total: Int64, speed: Double) -> String {
        let seconds = SpeedEstimator.secondsRemaining(bytes: bytes, total: total, speed: speed)
        return padded(seconds.map(Formatting.duration) ?? "--:--", to: durationWidth)
    }

    static func eta(bytes: Int64, total: Int64, speed: Double) -> String {
        let seconds = SpeedEstimator.secondsRemaining(bytes: bytes, total: total, speed: speed)
        return padded("ETA " + (seconds.map(Formatting.duration) ?? "--:--"), to: etaWidth)
    }

    /// `text` with spaces before it to fill `width` columns.
    static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - DisplayWidth.of(text))) + text
    }

    static func blank(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width))
    }
}
