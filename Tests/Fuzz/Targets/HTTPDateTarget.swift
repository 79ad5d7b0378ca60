import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, rfc850-date and asctime-date.
///
/// Input: the first 8 bytes pick the reference time (any instant from year 1 to 9999), the rest
/// is the field value.
///
/// Beyond not crashing:
/// - a parsed date is a whole second between years 1 and 9999;
/// - its IMF-fixdate is 29 characters and reads back to the same date, whatever the reference;
/// - an rfc850-date's year is at most 50 years after the reference's (§5.6.7);
/// - the reference, written as an IMF-fixdate, reads back to itself rounded down to the second;
/// - what the exact grammar (`Expires`) reads, the lenient one reads as the same date, and an
///   IMF-fixdate the library writes is exact.
enum HTTPDateTarget {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    static let earliest: TimeInterval = -62_135_596_800
    static let latest: TimeInterval = 253_402_300_799

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let reference = referenceDate(input.integer(UInt64.self))
        let value = String(decoding: input.rest(), as: UTF8.self)

        let referenceText = HTTPDate.format(reference)
        let referenceBack = HTTPDate.parse(referenceText, relativeTo: reference)
        fuzzCheck(
            referenceBack?.timeIntervalSince1970 == reference.timeIntervalSince1970.rounded(.down),
            "\(reference.timeIntervalSince1970) wrote \(referenceText), read \(String(describing: referenceBack))")

        let exact = HTTPDate.parse(value, relativeTo: reference, grammar: .exact)
        let lenient = HTTPDate.parse(value, relativeTo: reference)
        if let exact {
            fuzzCheck(lenient == exact, "\(value.debugDescription): exact \(exact), lenient \(lenient as Any)")
        }
        guard let date = lenient else { return }
        let seconds = date.timeIntervalSince1970
        fuzzCheck(seconds.rounded(.down) == seconds, "\(value.debugDescription) has a fraction: \(seconds)")
        fuzzCheck((earliest...latest).contains(seconds), "\(value.debugDescription) is out of range: \(seconds)")
        let text = HTTPDate.format(date)
        fuzzCheck(text.utf8.count == 29, "\(text) is not an IMF-fixdate")
        let back = HTTPDate.parse(text, relativeTo: Date(timeIntervalSince1970: 0))
        fuzzCheck(back == date, "\(value.debugDescription) → \(text) → \(String(describing: back))")
        let exactBack = HTTPDate.parse(text, relativeTo: Date(timeIntervalSince1970: 0), grammar: .exact)
        fuzzCheck(exactBack == date, "\(text) is not read by the exact grammar")
        if value.contains("-") && value.contains(",") {
            let referenceYear = Int(HTTPDate.format(reference).dropFirst(12).prefix(4)) ?? 0
            let year = Int(text.dropFirst(12).prefix(4)) ?? 0
            fuzzCheck(year <= referenceYear + 50, "\(value.debugDescription) read as \(text) from \(referenceText)")
        }
    }

    /// An instant in years 1…9999 with a fraction of a second, spread over the range by `raw`.
    static func referenceDate(_ raw: UInt64) -> Date {
        let span = latest - earliest
        let fraction = Double(raw >> 11) / Double(1 << 53)
        return Date(timeIntervalSince1970: earliest + fraction * span)
    }
}
