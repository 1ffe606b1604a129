/// The wording of lines for people, shared by every renderer.
enum HumanMessages {
    static func failure(_ failure: ItemFailure) -> String {
        "afget: \(failure.item): \(failure.failure.message)"
    }

    static func skipped(_ info: ItemInfo, reason: String) -> String {
        "afget: skipping \(info.path): \(reason) (see --on-exists)"
    }

    static func done(_ info: ItemInfo, bytes: Int64, seconds: Double) -> String {
        let speed = seconds > 0 ? ", " + Formatting.speed(Double(bytes) / seconds) : ""
        return "\(info.path == "-" ? info.url : info.path): done, \(Formatting.bytes(bytes)) in \(Formatting.elapsed(seconds))\(speed)"
    }

    static func retrying(_ info: ItemInfo, attempt: Int, delay: Double, reason: String) -> String {
        "afget: \(info.url): \(reason); retrying in \(Formatting.elapsed(delay)) (attempt \(attempt + 1))"
    }

    static func restarting(_ info: ItemInfo, reason: String) -> String {
        "afget: \(info.path): cannot continue (\(reason)); starting over"
    }

    static let interrupted = "afget: interrupted; resume data saved. Run the same command again to continue."

    static func summary(_ summary: RunSummary) -> String {
        "afget: \(summary.downloaded) \(summary.isUpload ? "uploaded" : "downloaded"), \(summary.skipped) skipped, \(summary.failed) failed; "
            + "\(Formatting.bytes(summary.bytes)) in \(Formatting.elapsed(summary.seconds))"
    }
}
