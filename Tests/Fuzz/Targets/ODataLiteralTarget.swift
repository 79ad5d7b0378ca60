import Foundation

/// OData literals (OData 4.01 Part 2 §5.1.1.6.1, ABNF `primitiveLiteral`, and the pre-v4 forms)
/// written from arbitrary Swift values, then read back by the small reference readers below.
///
/// Input: the first byte picks the kind (`s` string, `i` integer, `m` decimal, `d` double,
/// `f` float, `D` date, `t` DateTimeOffset, `T` time of day, `p` duration in seconds, `P`
/// duration from days/hours/minutes/seconds, `g` GUID, `b` binary, `e` enumeration member, `B`
/// Boolean; any other byte picks one by its value). The rest is the value: as text when it reads
/// as one (`1e300`, `2024-02-29`, `-90.5`), else as raw bytes (bit patterns, so NaN, infinities
/// and extreme dates come up).
///
/// Beyond not crashing: writing fails only with a typed `ODataQueryError`, and only for values
/// OData cannot express (a NaN decimal, an impossible date, an instant outside years 1–9999…);
/// every literal written has the shape the ABNF gives its type and reads back to the same value
/// (doubles and floats bit for bit, instants to the microsecond), in v4.01 and in v2 form.
enum ODataLiteralTarget {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let selector = input.byte()
        let restBytes = input.rest()
        let text = String(decoding: restBytes, as: UTF8.self)
        var raw = FuzzInput(restBytes)
        let kinds: [UInt8] = Array("simdfDtTpPgbeB".utf8)
        let kind = kinds.contains(selector) ? selector : kinds[Int(selector) % kinds.count]
        switch kind {
        case UInt8(ascii: "s"): checkString(text)
        case UInt8(ascii: "i"): checkInteger(Int64(text) ?? raw.integer())
        case UInt8(ascii: "m"): checkDecimal(Decimal(string: text, locale: posix) ?? decimal(&raw))
        case UInt8(ascii: "d"): checkDouble(Double(text) ?? Double(bitPattern: raw.integer()))
        case UInt8(ascii: "f"): checkFloat(Float(text) ?? Float(bitPattern: raw.integer()))
        case UInt8(ascii: "D"): checkDate(dateFields(text) ?? (raw.integer(), raw.integer(), raw.integer()))
        case UInt8(ascii: "t"): checkInstant(Double(text) ?? Double(bitPattern: raw.integer()))
        case UInt8(ascii: "T"): checkTime(raw.integer(), raw.integer(), raw.integer(), raw.integer())
        case UInt8(ascii: "p"):
            checkDuration(ODataDuration(seconds: Decimal(string: text, locale: posix) ?? decimal(&raw)))
        case UInt8(ascii: "P"):
            checkDuration(
                ODataDuration(days: raw.integer(), hours: raw.integer(), minutes: raw.integer(), seconds: decimal(&raw))
            )
        case UInt8(ascii: "g"): checkGUID(UUID(uuid: uuidBytes(raw.take(16))))
        case UInt8(ascii: "b"): checkBinary(Data(restBytes))
        case UInt8(ascii: "e"): checkEnum(fuzzFields(restBytes))
        default: checkBoolean(selector & 1 == 1)
        }
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// A decimal from raw bytes: sign, exponent, significand; NaN now and then.
    private static func decimal(_ raw: inout FuzzInput) -> Decimal {
        let head = raw.byte()
        if head == 0xFF { return .nan }
        let exponent = Int(Int8(bitPattern: raw.byte()))
        return Decimal(
            sign: head & 1 == 1 ? .minus : .plus, exponent: exponent, significand: Decimal(raw.integer(UInt64.self)))
    }

    private static func dateFields(_ text: String) -> (Int, Int, Int)? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false).compactMap { Int($0) }
        return fields.count == 3 && text.filter({ $0 == "-" }).count == 2 ? (fields[0], fields[1], fields[2]) : nil
    }

    private static func uuidBytes(_ bytes: [UInt8]) -> uuid_t {
        let b = bytes + [UInt8](repeating: 0, count: max(0, 16 - bytes.count))
        return (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
    }

    // MARK: - Writing

    /// The v4.01 and v2 texts, or `nil` when writing failed (with a typed error, by its type).
    private static func texts(_ value: some ODataLiteralConvertible) -> (v4: String, v2: String)? {
        do {
            return (try value.odataLiteral.text(for: .v401), try value.odataLiteral.text(for: .v2))
        } catch {
            _ = error.description
            return nil
        }
    }

    private static func matches(_ text: String, _ pattern: String) -> Bool {
        text.range(of: "^(?:" + pattern + ")$", options: .regularExpression) != nil
    }

    private static func expectWritten(_ value: Any, _ texts: (v4: String, v2: String)?) -> (v4: String, v2: String) {
        guard let texts else {
            fuzzCheck(false, "\(value) could not be written")
            return ("", "")
        }
        return texts
    }

    // MARK: - Kinds

    private static func checkString(_ value: String) {
        let (v4, v2) = expectWritten(value, texts(value))
        fuzzCheck(v4 == v2, "string forms differ")
        fuzzCheck(readString(v4) == value, "\(value.debugDescription) wrote \(v4.debugDescription)")
    }

    /// `SQUOTE *( SQUOTE SQUOTE / other ) SQUOTE`; `nil` for a lone quote inside.
    static func readString(_ text: String) -> String? {
        // By scalar: a combining mark after a quote would make one `Character` of the two.
        let scalars = text.unicodeScalars
        guard scalars.count >= 2, scalars.first == "'", scalars.last == "'" else { return nil }
        var result = ""
        var iterator = scalars.dropFirst().dropLast().makeIterator()
        while let scalar = iterator.next() {
            if scalar == "'" {
                guard iterator.next() == "'" else { return nil }
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    private static func checkInteger(_ value: Int64) {
        let (v4, v2) = expectWritten(value, texts(value))
        fuzzCheck(Int64(v4) == value && matches(v4, "-?[0-9]+"), "\(value) wrote \(v4)")
        let needsSuffix = value < Int64(Int32.min) || value > Int64(Int32.max)
        fuzzCheck(v2 == v4 + (needsSuffix ? "L" : ""), "\(value) wrote \(v2) before v4")
    }

    private static func checkDecimal(_ value: Decimal) {
        let written = texts(value)
        if value.isNaN { return fuzzCheck(written == nil, "a NaN decimal was written") }
        let (v4, v2) = expectWritten(value, written)
        fuzzCheck(matches(v4, "-?[0-9]+(\\.[0-9]+)?"), "\(value) wrote \(v4), not a decimalValue")
        fuzzCheck(Decimal(string: v4, locale: posix) == value, "\(v4) does not read back as \(value)")
        fuzzCheck(v2 == v4 + "M", "\(value) wrote \(v2) before v4")
    }

    /// `decimalValue [ "e" [ SIGN ] 1*DIGIT ] / nanInfinity`, as Swift writes it.
    private static let floatingPattern = "-?[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?|NaN|-?INF"

    private static func checkDouble(_ value: Double) {
        let (v4, v2) = expectWritten(value, texts(value))
        fuzzCheck(matches(v4, floatingPattern), "\(value) wrote \(v4), not a doubleValue")
        let back = v4 == "INF" ? .infinity : v4 == "-INF" ? -.infinity : Double(v4)
        fuzzCheck(
            back.map { $0.bitPattern == value.bitPattern || ($0.isNaN && value.isNaN) } ?? false,
            "\(v4) does not read back as \(value)")
        fuzzCheck(v2 == (value.isNaN ? "Nan" : v4) + "d", "\(value) wrote \(v2) before v4")
    }

    private static func checkFloat(_ value: Float) {
        let (v4, v2) = expectWritten(value, texts(value))
        fuzzCheck(matches(v4, floatingPattern), "\(value) wrote \(v4), not a singleValue")
        let back = v4 == "INF" ? .infinity : v4 == "-INF" ? -.infinity : Float(v4)
        fuzzCheck(
            back.map { $0.bitPattern == value.bitPattern || ($0.isNaN && value.isNaN) } ?? false,
            "\(v4) does not read back as \(value)")
        fuzzCheck(v2 == (value.isNaN ? "Nan" : v4) + "f", "\(value) wrote \(v2) before v4")
    }

    private static func checkBoolean(_ value: Bool) {
        let (v4, v2) = expectWritten(value, texts(value))
        fuzzCheck(v4 == v2 && v4 == (value ? "true" : "false"), "\(value) wrote \(v4)")
        fuzzCheck(texts(ODataLiteral.null).map { $0 == ("null", "null") } ?? false, "null")
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    private static func checkDate(_ fields: (Int, Int, Int)) {
        let (year, month, day) = fields
        let written = texts(ODataDate(year: year, month: month, day: day))
        let valid = (1...9999).contains(year) && (1...12).contains(month) && (1...daysIn(month, year)).contains(day)
        fuzzCheck((written != nil) == valid, "\(year)-\(month)-\(day) written: \(String(describing: written))")
        guard let (v4, v2) = written else { return }
        fuzzCheck(matches(v4, "[0-9]{4}-[0-9]{2}-[0-9]{2}"), "\(v4) is not a dateValue")
        let parts = v4.split(separator: "-").compactMap { Int($0) }
        fuzzCheck(parts == [year, month, day], "\(year)-\(month)-\(day) wrote \(v4)")
        fuzzCheck(v2 == "datetime'\(v4)T00:00'", "\(v4) wrote \(v2) before v4")
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

    /// 0001-01-01T00:00:00Z and the first instant after 9999-12-31.
    static let earliest: TimeInterval = -62_135_596_800
    static let end: TimeInterval = 253_402_300_800

    private static func checkInstant(_ seconds: Double) {
        let written = texts(Date(timeIntervalSince1970: seconds))
        // The microsecond rounding may carry a value just below the end over it: either is fine.
        let representable = seconds >= earliest && seconds < end - 0.000_001
        if seconds.isNaN || seconds < earliest || seconds >= end {
            return fuzzCheck(written == nil, "instant \(seconds) was written: \(String(describing: written))")
        }
        guard let (v4, v2) = written else { return fuzzCheck(!representable, "instant \(seconds) refused") }
        let pattern = "([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\\.[0-9]{1,6})?Z"
        fuzzCheck(matches(v4, pattern), "\(seconds) wrote \(v4), not a dateTimeOffsetValue")
        let numbers = v4.dropLast().split(whereSeparator: { "-T:".contains($0) })
        guard numbers.count == 6, let year = Int(numbers[0]), let month = Int(numbers[1]), let day = Int(numbers[2]),
            let hour = Int(numbers[3]), let minute = Int(numbers[4]), let second = Double(numbers[5])
        else { return fuzzCheck(false, "\(v4) does not read") }
        fuzzCheck((1...12).contains(month) && (1...daysIn(month, year)).contains(day), "\(v4) is no date")
        fuzzCheck(hour < 24 && minute < 60 && second < 60, "\(v4) is no time")
        let whole = Double(days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60)
        let back = whole + second
        let tolerance = 0.000_001 + 4 * seconds.ulp
        fuzzCheck(abs(back - seconds) <= tolerance, "\(seconds) wrote \(v4), which reads \(back)")
        fuzzCheck(v2 == "datetime'\(v4.dropLast())'", "\(v4) wrote \(v2) before v4")
    }

    private static func checkTime(_ hour: Int8, _ minute: Int8, _ second: Int8, _ nanosecond: Int32) {
        let time = ODataTimeOfDay(
            hour: Int(hour), minute: Int(minute), second: Int(second), nanosecond: Int(nanosecond))
        let written = texts(time)
        let valid =
            (0..<24).contains(hour) && (0..<60).contains(minute) && (0..<60).contains(second)
            && (0..<1_000_000_000).contains(nanosecond)
        fuzzCheck((written != nil) == valid, "\(time) written: \(String(describing: written))")
        guard let (v4, v2) = written else { return }
        fuzzCheck(matches(v4, "[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?"), "\(v4) is not a timeOfDayValue")
        let parts = v4.split(separator: ":")
        let fraction =
            parts.count == 3 ? Decimal(string: "0" + parts[2].drop(while: { $0 != "." }), locale: posix) : nil
        fuzzCheck(
            parts.count == 3 && Int(parts[0]) == Int(hour) && Int(parts[1]) == Int(minute)
                && Int(parts[2].prefix(2)) == Int(second)
                && fraction.map { $0 * 1_000_000_000 == Decimal(Int(nanosecond)) } ?? false,
            "\(time) wrote \(v4)")
        fuzzCheck(
            readDuration(String(v2.dropFirst(5).dropLast())) == Decimal(
                ((Int(hour) * 60 + Int(minute)) * 60 + Int(second))) + Decimal(Int(nanosecond)) / 1_000_000_000,
            "\(time) wrote \(v2) before v4")
    }

    private static func checkDuration(_ duration: ODataDuration) {
        let written = texts(duration)
        if duration.seconds.isNaN { return fuzzCheck(written == nil, "a NaN duration was written") }
        guard let (v4, v2) = written else { return }  // refusing an out-of-range duration is fine
        fuzzCheck(v4.hasPrefix("duration'") && v4.hasSuffix("'"), "\(v4) is not a duration literal")
        let body = String(v4.dropFirst(9).dropLast())
        fuzzCheck(
            matches(body, "-?P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+(\\.[0-9]+)?S)?)?") && body.last != "P"
                && body.last != "T", "\(body) is not a durationValue")
        fuzzCheck(readDuration(body) == duration.seconds, "\(duration.seconds) s wrote \(v4)")
        fuzzCheck(v2 == "time'\(body)'", "\(v4) wrote \(v2) before v4")
    }

    /// The seconds of an ISO 8601 duration with days, hours, minutes and seconds.
    static func readDuration(_ text: String) -> Decimal? {
        var rest = Substring(text)
        let negative = rest.hasPrefix("-")
        if negative { rest = rest.dropFirst() }
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        var total = Decimal(0)
        var number = ""
        for character in rest {
            switch character {
            case "0"..."9", ".": number.append(character)
            case "T": guard number.isEmpty else { return nil }
            case "D", "H", "M", "S":
                guard let value = Decimal(string: number, locale: posix) else { return nil }
                let unit: Decimal = ["D": 86_400, "H": 3_600, "M": 60, "S": 1][character]!
                total += value * unit
                number = ""
            default: return nil
            }
        }
        guard number.isEmpty else { return nil }
        return negative ? -total : total
    }

    private static func checkGUID(_ uuid: UUID) {
        let (v4, v2) = expectWritten(uuid, texts(uuid))
        fuzzCheck(
            matches(v4, "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "\(v4) is not a guidValue")
        fuzzCheck(UUID(uuidString: v4) == uuid, "\(uuid) wrote \(v4)")
        fuzzCheck(v2 == "guid'\(v4)'", "\(v4) wrote \(v2) before v4")
    }

    private static func checkBinary(_ data: Data) {
        let (v4, v2) = expectWritten(data, texts(data))
        fuzzCheck(v4.hasPrefix("binary'") && v4.hasSuffix("'"), "\(v4) is not a binary literal")
        var base64 = String(v4.dropFirst(7).dropLast())
        fuzzCheck(matches(base64, "[A-Za-z0-9_-]*") && base64.count % 4 != 1, "\(base64) is not base64url")
        base64 = base64.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        fuzzCheck(Data(base64Encoded: base64) == data, "\(data as NSData) wrote \(v4)")
        let hex = v2.dropFirst(7).dropLast()
        fuzzCheck(v2.hasPrefix("binary'") && hex.count == data.count * 2, "\(v2) before v4")
        let decoded = stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
        }
        fuzzCheck(Data(decoded) == data, "\(v2) does not read back")
    }

    private static func checkEnum(_ fields: [String]) {
        let member = ODataEnumMember(typeName: fields.first ?? "", members: Array(fields.dropFirst()))
        let written: String?
        do { written = try member.odataLiteral.text(for: .v401) } catch { written = nil }
        let valid =
            ODataName.isQualifiedName(member.typeName) && !member.members.isEmpty
            && member.members.allSatisfy { ODataName.isIdentifier($0) || Int($0) != nil }
        fuzzCheck((written != nil) == valid, "\(member) written: \(String(describing: written))")
        guard let written else { return }
        fuzzCheck(
            written == "\(member.typeName)'\(member.members.joined(separator: ","))'", "\(member) wrote \(written)")
        fuzzCheck(!member.members.contains { $0.contains("'") || $0.contains(",") }, "\(member) has quotes or commas")
        fuzzCheck((try? member.odataLiteral.text(for: .v2)) == nil, "an enumeration literal written before v4")
    }
}
