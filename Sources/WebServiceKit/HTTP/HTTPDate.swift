import Foundation

/// Reads and writes HTTP dates (RFC 9110 §5.6.7) without `DateFormatter`.
///
/// Three formats are read; only the first is written:
///
/// ```
/// IMF-fixdate  = day-name "," SP date1 SP time-of-day SP GMT    ; Sun, 06 Nov 1994 08:49:37 GMT
/// rfc850-date  = day-name-l "," SP date2 SP time-of-day SP GMT  ; Sunday, 06-Nov-94 08:49:37 GMT
/// asctime-date = day-name SP date3 SP time-of-day SP year       ; Sun Nov  6 08:49:37 1994
/// ```
///
/// "A recipient that parses a timestamp value in an HTTP field MUST accept all three HTTP-date
/// formats" (§5.6.7), and recipients are "encouraged to be robust in parsing timestamps unless
/// otherwise restricted by the field definition". Two grammars follow from that (``Grammar``):
/// - ``Grammar/lenient`` (the default, for `Date` and `Last-Modified`): one or more spaces
///   where the formats have one, a day of the month of one or two digits, either weekday form in
///   every format;
/// - ``Grammar/exact`` (for `Expires`, whose invalid values mean "already expired", RFC 9111
///   §5.3): the three formats exactly as §5.6.7 writes them.
///
/// In both, names are matched without regard to case ("Although all date formats are specified
/// to be case-sensitive, a cache recipient SHOULD match the field value case-insensitively", RFC
/// 9111 §4.2), spaces and tabs around the value are not part of it (RFC 9110 §5.5), the weekday
/// is not checked against the date (the grammar does not relate them), and a value that names an
/// impossible date or time is invalid (`nil`); callers then apply the rule of the field. A leap
/// second (`:60`) is read as the last second of its minute. Only `GMT` is a zone.
package enum HTTPDate {
    /// How closely a value must follow the formats of RFC 9110 §5.6.7.
    enum Grammar: Sendable {
        /// Robust reading: any run of spaces where a format has one, a one-digit day in
        /// IMF-fixdate and rfc850-date, a full weekday name in IMF-fixdate and asctime-date or an
        /// abbreviated one in rfc850-date.
        case lenient
        /// The ABNF of §5.6.7 (names in any case):
        ///
        /// ```
        /// IMF-fixdate  = day-name "," SP day SP month SP year SP time-of-day SP GMT  ; day = 2DIGIT
        /// rfc850-date  = day-name-l "," SP day "-" month "-" 2DIGIT SP time-of-day SP GMT
        /// asctime-date = day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP year
        /// ```
        case exact
    }

    /// The date `value` stands for, or `nil` when it is not a valid HTTP date under `grammar`.
    ///
    /// `reference` resolves the two-digit years of `rfc850-date`: a year that would be more than
    /// 50 years after `reference` is taken to be in the previous century (§5.6.7). Pass the time
    /// the message was received.
    static func parse(_ value: String, relativeTo reference: Date, grammar: Grammar = .lenient) -> Date? {
        guard value.utf8.count <= 64 else { return nil }
        let exact = grammar == .exact
        var reader = ByteReader(value, exact: exact)
        reader.skipWhitespace()
        guard let weekday = reader.letters(), let form = weekdayForm(weekday) else { return nil }
        let fields: Fields?
        if reader.skip(UInt8(ascii: ",")) {
            if reader.peekDayThenDash() {
                // rfc850-date: `day-name-l`, the full name.
                guard !exact || form == .full else { return nil }
                fields = reader.rfc850Fields(reference: reference)
            } else {
                guard !exact || form == .abbreviated else { return nil }
                fields = reader.imfFields()
            }
        } else {
            guard !exact || form == .abbreviated else { return nil }
            fields = reader.asctimeFields()
        }
        reader.skipWhitespace()
        guard let fields, reader.isAtEnd else { return nil }
        return fields.date
    }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), fractions of a second dropped.
    static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = floorDivide(seconds, by: 86_400)
        let (year, month, day) = civilDate(fromDays: days)
        let weekday = Int((days % 7 + 11) % 7)  // 1970-01-01 was a Thursday (index 4).
        return "\(shortWeekdays[weekday]), \(twoDigits(day)) \(months[month - 1]) \(fourDigits(year)) "
            + "\(twoDigits(Int(secondOfDay / 3600))):\(twoDigits(Int(secondOfDay / 60 % 60))):"
            + "\(twoDigits(Int(secondOfDay % 60))) GMT"
    }

    // MARK: - Names

    /// Weekday abbreviations, Sunday first, as IMF-fixdate writes them.
    fileprivate static let shortWeekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// Full weekday names, lowercased, Sunday first (rfc850-date).
    fileprivate static let longWeekdays = [
        "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    ]
    /// Month abbreviations, January first.
    fileprivate static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// The two ways §5.6.7 writes a weekday.
    private enum WeekdayForm {
        /// `day-name`: `Mon`, `Tue`…
        case abbreviated
        /// `day-name-l`: `Monday`, `Tuesday`…
        case full
    }

    /// Which form of weekday `name` is (any case), or `nil` when it is no weekday.
    private static func weekdayForm(_ name: String) -> WeekdayForm? {
        let lowercased = name.lowercased()
        if longWeekdays.contains(lowercased) { return .full }
        return longWeekdays.contains { $0.prefix(3) == lowercased } ? .abbreviated : nil
    }

    /// The month number (1–12) of a three-letter month name, any case.
    fileprivate static func month(named name: String) -> Int? {
        let lowercased = name.lowercased()
        return months.firstIndex { $0.lowercased() == lowercased }.map { $0 + 1 }
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, UTC)

    /// The broken-down fields of a date, checked by ``date``.
    fileprivate struct Fields {
        /// The year, 1–9999.
        var year: Int
        /// The month, 1–12.
        var month: Int
        /// The day of the month, from 1.
        var day: Int
        /// The hour, 0–23.
        var hour: Int
        /// The minute, 0–59.
        var minute: Int
        /// The second, 0–60 (a leap second).
        var second: Int

        /// The date, or `nil` when a field is out of range.
        var date: Date? {
            guard (1...9999).contains(year), (1...12).contains(month),
                (1...HTTPDate.daysInMonth(month, year: year)).contains(day),
                (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
            else { return nil }
            let days = HTTPDate.days(fromCivilYear: year, month: month, day: day)
            let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// The number of days of `month` in `year` (Gregorian leap years).
    package static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`).
    fileprivate static func days(fromCivilYear year: Int, month: Int, day: Int) -> Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a number of days since 1970-01-01 (H. Hinnant's `civil_from_days`), in
    /// the proleptic Gregorian calendar.
    package static func civilDate(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The UTC year of `date`.
    fileprivate static func year(of date: Date) -> Int {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return civilDate(fromDays: floorDivide(seconds, by: 86_400).quotient).year
    }

    /// Division rounding towards minus infinity, with a remainder in `0..<divisor`.
    private static func floorDivide(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    /// `value` with a leading zero below 10.
    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `value` padded with zeros to four digits.
    private static func fourDigits(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A cursor over the bytes of a date value.
private struct ByteReader {
    /// The value's UTF-8 bytes.
    private let bytes: [UInt8]
    /// The cursor.
    private var index = 0
    /// Whether the value must follow ``HTTPDate/Grammar/exact``.
    private let exact: Bool

    /// A reader at the start of `value`.
    init(_ value: String, exact: Bool) {
        bytes = Array(value.utf8)
        self.exact = exact
    }

    /// Whether every byte has been consumed.
    var isAtEnd: Bool { index == bytes.count }

    /// Consumes spaces and tabs.
    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
    }

    /// Consumes `byte` if it is next.
    mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Consumes the `SP` between two parts of a date: exactly one space in the exact grammar, one
    /// or more in the lenient one.
    mutating func spaces() -> Bool {
        guard skip(UInt8(ascii: " ")) else { return false }
        if !exact {
            while skip(UInt8(ascii: " ")) {}
        }
        return true
    }

    /// `day = 2DIGIT` in the exact grammar; one or two digits in the lenient one.
    mutating func dayOfMonth() -> Int? { exact ? number(digits: 2, 2) : number(digits: 1, 2) }

    /// Consumes a run of ASCII letters.
    mutating func letters() -> String? {
        let start = index
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"),
            (bytes[index] | 0x20) <= UInt8(ascii: "z")
        {
            index += 1
        }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// Consumes between `minimum` and `maximum` decimal digits.
    mutating func number(digits minimum: Int, _ maximum: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maximum, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            count += 1
        }
        return count >= minimum ? value : nil
    }

    /// Whether what follows the weekday's comma is `SP day "-"`, the rfc850-date shape.
    func peekDayThenDash() -> Bool {
        var probe = self
        _ = probe.spaces()
        return probe.dayOfMonth() != nil && probe.skip(UInt8(ascii: "-"))
    }

    /// asctime-date's day, after the `SP` that follows the month: `2DIGIT / ( SP DIGIT )` in the
    /// exact grammar (`Nov  6`, `Nov 06`), one or two digits after any spaces in the lenient one.
    mutating func asctimeDay() -> Int? {
        guard exact else {
            while skip(UInt8(ascii: " ")) {}
            return number(digits: 1, 2)
        }
        return skip(UInt8(ascii: " ")) ? number(digits: 1, 1) : number(digits: 2, 2)
    }

    /// Consumes a month name and returns its number (1–12).
    mutating func month() -> Int? { letters().flatMap(HTTPDate.month(named:)) }

    /// `hour ":" minute ":" second`, two digits each.
    mutating func timeOfDay() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = number(digits: 2, 2), skip(UInt8(ascii: ":")), let minute = number(digits: 2, 2),
            skip(UInt8(ascii: ":")), let second = number(digits: 2, 2)
        else { return nil }
        return (hour, minute, second)
    }

    /// Consumes `GMT` (any case).
    mutating func gmt() -> Bool { letters()?.lowercased() == "gmt" }

    /// After `day-name ","`: `SP day SP month SP year SP time-of-day SP GMT`.
    mutating func imfFields() -> HTTPDate.Fields? {
        guard spaces(), let day = dayOfMonth(), spaces(), let month = month(), spaces(),
            let year = number(digits: 4, 4), spaces(), let time = timeOfDay(), spaces(), gmt()
        else { return nil }
        return HTTPDate.Fields(
            year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: time.second)
    }

    /// After `day-name-l ","`: `SP day "-" month "-" 2DIGIT SP time-of-day SP GMT`.
    mutating func rfc850Fields(reference: Date) -> HTTPDate.Fields? {
        guard spaces(), let day = dayOfMonth(), skip(UInt8(ascii: "-")), let month = month(),
            skip(UInt8(ascii: "-")), let shortYear = number(digits: 2, 2), spaces(),
            let time = timeOfDay(), spaces(), gmt()
        else { return nil }
        // §5.6.7: a year more than 50 years in the future is the most recent past year with the
        // same last two digits, that is the latest year ending in `shortYear` not after limit.
        let limit = HTTPDate.year(of: reference) + 50
        let year = limit - ((limit - shortYear) % 100 + 100) % 100
        return HTTPDate.Fields(
            year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: time.second)
    }

    /// After `day-name`: `SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP year`.
    mutating func asctimeFields() -> HTTPDate.Fields? {
        guard spaces(), let month = month(), spaces(), let day = asctimeDay(), spaces(),
            let time = timeOfDay(), spaces(), let year = number(digits: 4, 4)
        else { return nil }
        return HTTPDate.Fields(
            year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: time.second)
    }
}
