import Foundation

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
        var components = DateComponents(year: year, month: month, day: day)
        components.calendar = ODataDateFormatting.calendar
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            components.isValidDate
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

/// A length of time (`Edm.Duration`): `duration'P1DT2H30M'`.
public struct ODataDuration: ODataLiteralConvertible, Hashable {
    /// The length in seconds; negative durations are written with a leading `-`.
    public let seconds: Decimal

    /// Creates a duration of `seconds`.
    public init(seconds: Decimal) { self.seconds = seconds }

    /// Creates a duration from days, hours, minutes and seconds.
    public init(days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Decimal = 0) {
        self.seconds = Decimal(((days * 24 + hours) * 60 + minutes) * 60) + seconds
    }

    public var odataLiteral: ODataLiteral { ODataLiteral(.duration(self)) }

    /// ISO 8601 duration with days, hours, minutes and seconds (ABNF `durationValue`).
    var text: String {
        var rest = seconds < 0 ? -seconds : seconds
        var whole = NSDecimalNumber(decimal: rest).rounding(accordingToBehavior: Self.truncating).intValue
        let fraction = rest - Decimal(whole)
        let days = whole / 86_400
        whole %= 86_400
        let hours = whole / 3_600
        whole %= 3_600
        let minutes = whole / 60
        rest = Decimal(whole % 60) + fraction
        var text = seconds < 0 ? "-P" : "P"
        if days > 0 { text += "\(days)D" }
        var time = ""
        if hours > 0 { time += "\(hours)H" }
        if minutes > 0 { time += "\(minutes)M" }
        if rest > 0 || (days == 0 && time.isEmpty) { time += "\(rest)S" }
        if !time.isEmpty { text += "T" + time }
        return text
    }

    private static let truncating = NSDecimalNumberHandler(
        roundingMode: .down, scale: 0, raiseOnExactness: false, raiseOnOverflow: false, raiseOnUnderflow: false,
        raiseOnDivideByZero: false)
}

/// A member (or, for flags, several members) of an enumeration type: `Demo.Color'Red'`.
public struct ODataEnumMember: ODataLiteralConvertible, Hashable {
    /// The qualified type name, `Namespace.Type`.
    public let typeName: String
    /// The member names (several for a flags enumeration).
    public let members: [String]

    /// Creates an enumeration literal.
    public init(_ typeName: String, _ members: String...) {
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

/// Date and time text for literals, always in UTC with the Gregorian calendar.
enum ODataDateFormatting {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `2024-05-01T10:30:00Z`, with the fraction of the second when there is one (to the
    /// microsecond, the precision a `Date` holds near the present).
    static func dateTimeOffset(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var micros = Int(((interval - seconds) * 1_000_000).rounded())
        if micros == 1_000_000 {
            seconds += 1
            micros = 0
        }
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
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
