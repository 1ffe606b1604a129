import AFGetRequest
@testable import AFGetKit
@testable import CurlCore

/// HTTP dates (Last-Modified, Date) and Retry-After, which says how long a retry waits.
enum HTTPDateTarget: FuzzTarget {
    static let name = "http-date"

    /// 2026-01-01, a fixed "now" so a run repeats.
    private static let now: Int64 = 1_767_225_600

    static func fuzz(_ input: [UInt8]) {
        let text = input.text
        let date = HTTPDate.seconds(from: text)
        if let date {
            expect(date >= 0, "a date before 1970: \(date)")
            // Any date read is written in the one current form, which reads back the same.
            if date < 253_402_300_800 {  // year 10000: the form has four digits for the year
                let written = HTTPDate.format(date)
                expect(HTTPDate.fixdateSeconds(Array(written.utf8)) == date, "\(written) does not read back as \(date)")
            }
        }
        // The fast path agrees with libcurl's parser on every text it accepts.
        if let fast = HTTPDate.fixdateSeconds(input), String(validating: input, as: UTF8.self) != nil {
            expect(date == fast, "the fixdate reading differs from the general one")
        }
        let wait = RetryAfter.seconds(text, now: now)
        if let wait {
            expect(wait >= 0 && wait.isFinite, "a wait of \(wait) s")
            let trimmed = text.trimmingWhitespace()
            if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int64(trimmed) {
                expect(wait == Double(seconds), "delay-seconds \(trimmed) read as \(wait)")
            } else {
                // Anything but plain digits is a date, or nothing.
                expect(HTTPDate.seconds(from: trimmed).map { Double(max(0, $0 - now)) } == wait, "\(trimmed) read as \(wait) s")
            }
        }
        // The decision that follows never waits longer than the policy allows.
        switch RetryPolicy(maxRetries: 3, baseDelay: 1).decision(afterFailedAttempts: 1, retryAfter: text, now: now) {
        case .retry(let after): expect(after >= 0 && after <= RetryAfter.longestWait, "a wait of \(after) s")
        case .tooLongToWait(let seconds, let retryAfter):
            expect(
                retryAfter == text && wait.map { Int($0) } == seconds, "a refusal of \(seconds) s for Retry-After \(retryAfter)")
        default: break
        }
    }
}
