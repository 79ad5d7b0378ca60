import Foundation

/// Freshness lifetime and age of a stored response (RFC 9111 §4.2).
extension CacheRules {
    /// The share of the time since `Last-Modified` a heuristic lifetime is (§4.2.2: "typically
    /// ... some fraction of the interval since that time. A typical setting of this fraction might
    /// be 10%").
    static let heuristicFraction = 0.1

    /// The longest heuristic lifetime: one day. RFC 7234 asked for a warning past 24 hours and
    /// RFC 9111 dropped warnings; the cap keeps a years-old `Last-Modified` from making a
    /// response fresh for months.
    static let maximumHeuristicLifetime: TimeInterval = 86_400

    /// The status codes a response may be heuristically fresh with (RFC 9110 §15.1), without 206
    /// (Partial Content): partial responses are not stored.
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The freshness lifetime of the stored response, in seconds (§4.2.1), first of:
    /// - `max-age` (an invalid value counts as 0); `s-maxage` is for shared caches;
    /// - `Expires` minus `Date` (§5.3: "a cache recipient MUST interpret invalid date formats,
    ///   especially the value "0", as representing a time in the past", so an invalid value gives
    ///   0; with several `Expires` lines, any invalid one gives 0, otherwise the earliest counts).
    ///   `Expires = HTTP-date` is read by its exact grammar (``HTTPDate/Grammar/exact``): a value
    ///   with two spaces where IMF-fixdate has one (`Thu, 18  Aug  2050 02:01:18 GMT`) is invalid,
    ///   while asctime's `Nov  6` (a space before a one-digit day) is the grammar itself;
    /// - a heuristic (§4.2.2), only when there is no explicit expiration and the status is
    ///   heuristically cacheable or the response says `public`: 10 % of `Date` minus
    ///   `Last-Modified`, capped at ``maximumHeuristicLifetime``;
    /// - 0.
    ///
    /// A missing or invalid `Date` is the time the response was received (RFC 9110 §6.6.1).
    static func freshnessLifetime(of entry: CacheEntry) -> TimeInterval {
        let directives = entry.cacheControl
        if let maxAge = directives.maxAge { return maxAge }
        let dateValue = entry.date("Date") ?? entry.responseTime
        let expiresValues = entry.responseHeaders.values(for: "Expires")
        if !expiresValues.isEmpty {
            let parsed = expiresValues.map { HTTPDate.parse($0, relativeTo: entry.responseTime, grammar: .exact) }
            guard let expires = parsed.compactMap({ $0 }).min(), parsed.count == parsed.compactMap({ $0 }).count
            else { return 0 }
            return clamp(expires.timeIntervalSince(dateValue))
        }
        guard heuristicallyCacheableStatuses.contains(entry.status) || directives.isPublic,
            let lastModified = entry.date("Last-Modified")
        else { return 0 }
        return min(clamp(dateValue.timeIntervalSince(lastModified) * heuristicFraction), maximumHeuristicLifetime)
    }

    /// The current age of the stored response at `now`, in seconds (§4.2.3):
    ///
    /// ```
    /// apparent_age = max(0, response_time - date_value)
    /// response_delay = response_time - request_time
    /// corrected_age_value = age_value + response_delay
    /// corrected_initial_age = max(apparent_age, corrected_age_value)
    /// resident_time = now - response_time
    /// current_age = corrected_initial_age + resident_time
    /// ```
    ///
    /// `age_value` is the stored `Age` (``ageValue(_:)``, 0 when there is none or it is ignored).
    /// `date_value` is the stored `Date`, or `response_time` when it is missing or invalid. Time
    /// differences the client's clock makes negative (a clock set back) count as 0.
    static func currentAge(of entry: CacheEntry, now: Date) -> TimeInterval {
        let ageValue = ageValue(entry.responseHeaders) ?? 0
        let dateValue = entry.date("Date") ?? entry.responseTime
        let apparentAge = clamp(entry.responseTime.timeIntervalSince(dateValue))
        let responseDelay = clamp(entry.responseTime.timeIntervalSince(entry.requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        let residentTime = clamp(now.timeIntervalSince(entry.responseTime))
        return correctedInitialAge + residentTime
    }

    /// The `Age` of `headers` in seconds (`Age = delta-seconds`, RFC 9111 §5.1), clamped to 2³¹
    /// (§1.2.2), or `nil` when there is no `Age` or it is to be ignored.
    ///
    /// `Age` is a singleton field, yet §5.1 says what to do with a list: "a cache encountering a
    /// message with a list-based Age field value SHOULD use the first member of the field value,
    /// discarding subsequent ones. If the field value (after discarding additional members ...) is
    /// invalid (e.g., it contains something other than a non-negative integer), a cache SHOULD
    /// ignore the field." So:
    /// - `Age: 0, 7200` is 0, and so are two lines `Age: 0` and `Age: 7200`: the lines of a
    ///   field are one list, in order (RFC 9110 §5.3); `Age: 7200, 0` is 7200;
    /// - empty list elements are not members (RFC 9110 §5.6.1): `Age: , 60` is 60;
    /// - a first member that is not `1*DIGIT` (`7200;foo=bar`, `-5`, `1.5`, `ten`) makes the whole
    ///   field ignored, whatever follows it: `Age: 7200;foo=bar, 60` is `nil`, not 60.
    static func ageValue(_ headers: HTTPHeaders) -> TimeInterval? {
        // OWS around a list element is not part of it (RFC 9110 §5.6.1, §5.6.3).
        let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        for value in headers.values(for: "Age") {
            for member in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                guard let start = member.firstIndex(where: { !isWhitespace($0) }),
                    let end = member.lastIndex(where: { !isWhitespace($0) })
                else { continue }
                return CacheControl.deltaSeconds(String(decoding: member[start...end], as: UTF8.self))
            }
        }
        return nil
    }

    /// The `Age` field value of a response served from the cache (§5.1): whole seconds, rounded
    /// down, between 0 and 2³¹ (§1.2.2).
    static func ageFieldValue(_ age: TimeInterval) -> String {
        guard age.isFinite else { return age > 0 ? String(Int(CacheControl.maximumDeltaSeconds)) : "0" }
        return String(Int(min(max(0, age), CacheControl.maximumDeltaSeconds).rounded(.down)))
    }

    /// `seconds`, or 0 when negative.
    private static func clamp(_ seconds: TimeInterval) -> TimeInterval { max(0, seconds) }
}
