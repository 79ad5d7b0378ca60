import Foundation

/// The `Retry-After` field (RFC 9110 §10.2.3): how long a server asks a client to wait.
enum RetryAfter {
    /// The wait `value` asks for, in seconds from `now`, or `nil` when it is not a valid value.
    ///
    /// `Retry-After = HTTP-date / delay-seconds`, `delay-seconds = 1*DIGIT`: a run of digits is a
    /// number of seconds (a run too long for any real wait is read as a very long one, never an
    /// overflow); anything else is an HTTP date (§5.6.7, read by ``HTTPDate``), and the wait is
    /// the time until it, 0 for a date already past. Whitespace around the value is ignored; a
    /// negative, fractional or signed number is not a `delay-seconds` and is invalid.
    static func seconds(in value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // More than 15 digits is more than 31 million years: past every cap, kept finite.
            guard trimmed.utf8.count <= 15, let seconds = Int64(trimmed) else { return 1e15 }
            return TimeInterval(seconds)
        }
        guard let date = HTTPDate.parse(trimmed, relativeTo: now) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// The wait the response's `Retry-After` asks for, when it has one valid field. Several
    /// fields, or a list, are not a valid value (the field is a singleton).
    static func seconds(in headers: HTTPHeaders, now: Date) -> TimeInterval? {
        let values = headers.values(for: "Retry-After")
        guard values.count == 1, let value = values.first else { return nil }
        return seconds(in: value, now: now)
    }
}
