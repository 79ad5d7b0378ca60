import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// A calendar date without a time (`Edm.Date`): `2024-05-01`.
public struct ODataDate: ODataLiteralConvertible, Hashable {
    /// The year (1–9999).
    public let year: Int
    /// The month (1–12).
    public let month: Int
    /// The day of the month (1–31, checked against the month).
    public let day: Int

    /// Creates a date; an impossible date fails when the query is written.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public var odataLiteral: ODataLiteral { ODataLiteral(.date(self)) }

    func text() throws(ODataQueryError) -> String {
        // The proleptic Gregorian calendar of ISO 8601 (OData 4.01 Part 2 §5.1.1.6.1, `dateValue`),
        // not Foundation's Gregorian calendar, which is Julian before 1582-10-15: 1500-02-29 is no
        // date, 1582-10-10 is one.
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...HTTPDate.daysInMonth(month, year: year)).contains(day)
        else { throw .invalidValue("\(year)-\(month)-\(day) is not a date") }
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}

/// A time of day (`Edm.TimeOfDay`): `13:45:00` or `13:45:00.25`.
public struct ODataTimeOfDay: ODataLiteralConvertible, Hashable {
    /// The hour (0–23).
    public let hour: Int
    /// The minute (0–59).
    public let minute: Int
    /// The second (0–59).
    public let second: Int
    /// The fraction of the second, in nanoseconds.
    public let nanosecond: Int

    /// Creates a time of day; an impossible time fails when the query is written.
    public init(hour: Int, minute: Int, second: Int = 0, nanosecond: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }

    public var odataLiteral: ODataLiteral { ODataLiteral(.timeOfDay(self)) }

    private func validate() throws(ODataQueryError) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
            (0..<1_000_000_000).contains(nanosecond)
        else { throw .invalidValue("\(hour):\(minute):\(second).\(nanosecond) is not a time of day") }
    }

    func text() throws(ODataQueryError) -> String {
        try validate()
        return String(format: "%02d:%02d:%02d", hour, minute, second)
            + ODataDateFormatting.fraction(nanoseconds: nanosecond)
    }

    /// The pre-v4 `Edm.Time` form: a duration since midnight.
    func durationText() throws(ODataQueryError) -> String {
        try validate()
        return "PT\(hour)H\(minute)M\(second)\(ODataDateFormatting.fraction(nanoseconds: nanosecond))S"
    }
}

/// An instant written with the offset from UTC of a place (`Edm.DateTimeOffset`):
/// `2024-05-01T12:30:00+02:00`, where a plain `Date` is always written in UTC (`…T10:30:00Z`).
///
/// ```swift
/// let noon = ODataDateTimeOffset(instant, offsetMinutes: 120)              // …T12:30:00+02:00
/// let local = ODataDateTimeOffset(instant, timeZone: TimeZone(identifier: "Europe/Paris")!)
/// ```
///
/// The offset is written as ABNF `dateTimeOffsetLiteral` has it, `SIGN hour COLON minute`, with
/// the `+` percent-encoded (`%2B`: a bare `+` in a query reads as a space). Before OData 4 the
/// literal is `datetimeoffset'2024-05-01T12:30:00+02:00'` (OData 2.0 and 3.0 `Edm.DateTimeOffset`).
public struct ODataDateTimeOffset: ODataLiteralConvertible, Hashable {
    /// The instant.
    public let instant: Date
    /// The offset from UTC in seconds, east positive.
    public let offsetSeconds: Int

    /// The instant with an offset of `offsetMinutes` east of UTC (`-300` is `-05:00`). An offset
    /// of 24 hours or more fails when the query is written (ABNF `hour` is 00 to 23).
    public init(_ instant: Date, offsetMinutes: Int) {
        self.instant = instant
        // Clamped, not multiplied unchecked: an absurd offset fails on writing instead of trapping.
        self.offsetSeconds =
            offsetMinutes.multipliedReportingOverflow(by: 60).overflow
            ? (offsetMinutes < 0 ? Int.min : Int.max) : offsetMinutes * 60
    }

    /// The instant with the offset `timeZone` has at that instant (daylight saving time included).
    /// A zone whose offset then is not whole minutes (local mean time before 1900, say) fails
    /// when the query is written.
    public init(_ instant: Date, timeZone: TimeZone) {
        self.instant = instant
        self.offsetSeconds = timeZone.secondsFromGMT(for: instant)
    }

    /// The offset in whole minutes.
    public var offsetMinutes: Int { offsetSeconds / 60 }

    public var odataLiteral: ODataLiteral { ODataLiteral(.zonedDateTime(self)) }

    /// `2024-05-01T12:30:00+02:00`, or `…Z` for a zero offset.
    func text() throws(ODataQueryError) -> String {
        guard offsetSeconds % 60 == 0, (-(24 * 3_600 - 60)...(24 * 3_600 - 60)).contains(offsetSeconds) else {
            throw .invalidValue("an offset of \(offsetSeconds) s is not whole minutes within ±23:59")
        }
        guard offsetSeconds != 0 else { return try ODataDateFormatting.dateTimeOffset(instant) }
        // The local wall-clock time: the instant moved by the offset, then written as UTC is.
        let local = try ODataDateFormatting.dateTimeOffset(instant.addingTimeInterval(TimeInterval(offsetSeconds)))
        let minutes = abs(offsetSeconds) / 60
        return local.dropLast() + (offsetSeconds < 0 ? "-" : "+")
            + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}

/// A length of time (`Edm.Duration`): `duration'P1DT2H30M'`.
public struct ODataDuration: ODataLiteralConvertible, Hashable {
    /// The length in seconds; negative durations are written with a leading `-`.
    public let seconds: Decimal

    /// Creates a duration of `seconds`.
    public init(seconds: Decimal) { self.seconds = seconds }

    /// Creates a duration from days, hours, minutes and seconds.
    public init(days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Decimal = 0) {
        // In Decimal, which holds any Int exactly: Int arithmetic would trap on overflow.
        self.seconds = Decimal(days) * 86_400 + Decimal(hours) * 3_600 + Decimal(minutes) * 60 + seconds
    }

    public var odataLiteral: ODataLiteral { ODataLiteral(.duration(self)) }

    /// The largest length written, in seconds: 2⁶³ − 1, about 292 billion years. Beyond it the
    /// split into days, hours and minutes would need more digits than a `Decimal` holds.
    static let maximumSeconds = Decimal(Int64.max)

    /// ISO 8601 duration with days, hours, minutes and seconds (ABNF `durationValue`).
    ///
    /// Throws for NaN and for lengths beyond ``maximumSeconds``.
    func text() throws(ODataQueryError) -> String {
        guard !seconds.isNaN else { throw .invalidValue("a duration cannot be NaN") }
        let magnitude = seconds < 0 ? -seconds : seconds
        guard magnitude <= Self.maximumSeconds else {
            throw .invalidValue("a duration of \(seconds) seconds is out of range")
        }
        // Decimal arithmetic throughout: every quotient below has at most 19 integer digits, so
        // truncating it is exact, and so are the products and differences.
        let whole = Self.truncated(magnitude)
        let days = Self.truncated(whole / 86_400)
        var remainder = whole - days * 86_400
        let hours = Self.truncated(remainder / 3_600)
        remainder -= hours * 3_600
        let minutes = Self.truncated(remainder / 60)
        let rest = remainder - minutes * 60 + (magnitude - whole)
        var text = seconds < 0 ? "-P" : "P"
        if days > 0 { text += "\(days)D" }
        var time = ""
        if hours > 0 { time += "\(hours)H" }
        if minutes > 0 { time += "\(minutes)M" }
        if rest > 0 || (days == 0 && time.isEmpty) { time += "\(rest)S" }
        if !time.isEmpty { text += "T" + time }
        return text
    }

    /// `value` without its fraction (`value` is not negative).
    private static func truncated(_ value: Decimal) -> Decimal {
        var value = value
        var result = Decimal()
        NSDecimalRound(&result, &value, 0, .down)
        return result
    }
}

/// A member (or, for flags, several members) of an enumeration type: `Demo.Color'Red'`.
public struct ODataEnumMember: ODataLiteralConvertible, Hashable {
    /// The qualified type name, `Namespace.Type`.
    public let typeName: String
    /// The member names (several for a flags enumeration).
    public let members: [String]

    /// Creates an enumeration literal.
    public init(_ typeName: String, _ members: String...) {
        self.init(typeName: typeName, members: members)
    }

    /// Creates an enumeration literal from a list of members.
    init(typeName: String, members: [String]) {
        self.typeName = typeName
        self.members = members
    }

    public var odataLiteral: ODataLiteral { ODataLiteral(.enumMember(self)) }

    func text() throws(ODataQueryError) -> String {
        guard ODataName.isQualifiedName(typeName) else { throw .invalidName(typeName) }
        guard !members.isEmpty else { throw .invalidValue("an enumeration literal needs a member") }
        for member in members where !ODataName.isIdentifier(member) && Int(member) == nil {
            throw .invalidName(member)
        }
        return "\(typeName)'\(members.joined(separator: ","))'"
    }
}

/// Date and time text for literals, always in UTC with the proleptic Gregorian calendar.
enum ODataDateFormatting {
    /// 0001-01-01T00:00:00Z: the first instant with a four-digit year.
    static let earliest: TimeInterval = -62_135_596_800
    /// 10000-01-01T00:00:00Z: the first instant past year 9999.
    static let end: TimeInterval = 253_402_300_800

    /// `2024-05-01T10:30:00Z`, with the fraction of the second when there is one (to the
    /// microsecond, the precision a `Date` holds near the present).
    ///
    /// Throws for an instant that is not finite or not in years 1–9999: the ABNF's `year` has
    /// four digits there, and a year 0 or before would need a sign many services refuse. Years
    /// before 1582 are proleptic Gregorian, as ISO 8601 has them, not Julian as in Foundation's
    /// Gregorian calendar.
    static func dateTimeOffset(_ date: Date) throws(ODataQueryError) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { throw .invalidValue("the instant \(interval) is not finite") }
        var seconds = interval.rounded(.down)
        var micros = Int(((interval - seconds) * 1_000_000).rounded())
        if micros == 1_000_000 {
            seconds += 1
            micros = 0
        }
        guard seconds >= earliest, seconds < end else {
            throw .invalidValue("the instant \(interval) s since 1970 is outside years 1 to 9999")
        }
        let whole = Int64(seconds)
        let secondOfDay = (whole % 86_400 + 86_400) % 86_400
        let (year, month, day) = HTTPDate.civilDate(fromDays: (whole - secondOfDay) / 86_400)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, Int(secondOfDay / 3_600),
            Int(secondOfDay / 60 % 60), Int(secondOfDay % 60))
            + fraction(nanoseconds: micros * 1_000) + "Z"
    }

    /// `.25` for a quarter of a second, nothing for zero.
    static func fraction(nanoseconds: Int) -> String {
        guard nanoseconds > 0 else { return "" }
        var digits = String(format: "%09d", nanoseconds)
        while digits.hasSuffix("0") { digits.removeLast() }
        return "." + digits
    }
}
