import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// A value the encoder writes as one piece of text: the content of an element, an attribute value
/// or an element's text.
///
/// Date, Data, URL and Decimal are listed here so that their own `Codable` forms (a number, an
/// array of bytes, a keyed container) are replaced by readable text.
protocol XMLScalarEncodable: Encodable {
    /// The text for this value under the strategies of `encoder`.
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) throws -> String
}

/// A value the decoder reads from one piece of text; the counterpart of ``XMLScalarEncodable``.
protocol XMLScalarDecodable: Decodable {
    /// Reads a value from `text`. Only `String` keeps surrounding whitespace; other types trim it.
    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> Self
}

/// A collection type whose absence in the XML means "empty": an empty array is written as no
/// element at all, so a missing key decodes as `[]`. `Optional` uses the same rule for `nil`.
protocol XMLEmptyWhenAbsent {
    /// The value a missing key decodes as.
    static var xmlValueWhenAbsent: Self { get }
}

extension Array: XMLEmptyWhenAbsent {
    static var xmlValueWhenAbsent: Self { [] }
}

extension Set: XMLEmptyWhenAbsent {
    static var xmlValueWhenAbsent: Self { [] }
}

extension Optional: XMLEmptyWhenAbsent {
    static var xmlValueWhenAbsent: Self { nil }
}

// MARK: - Errors shared by the scalar types

extension XMLScalarDecodable {
    /// `text` without leading and trailing XML whitespace.
    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The error for text that does not spell a value of this type at all.
    static func mismatch(_ text: String, _ codingPath: [any CodingKey], expected: String? = nil) -> DecodingError {
        DecodingError.typeMismatch(
            Self.self,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Expected \(expected ?? "\(Self.self)") but found \(quoted(text)) instead."))
    }

    /// The error for text that spells a value of the right kind that does not fit this type.
    static func corrupted(_ text: String, _ codingPath: [any CodingKey], reason: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: "\(quoted(text)) \(reason)."))
    }

    private static func quoted(_ text: String) -> String {
        text.count > 64 ? "\"\(text.prefix(64))…\"" : "\"\(text)\""
    }
}

// MARK: - Strings and booleans

extension String: XMLScalarEncodable, XMLScalarDecodable {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) -> String { self }

    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) -> String {
        text
    }
}

extension Bool: XMLScalarEncodable, XMLScalarDecodable {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) -> String { self ? "true" : "false" }

    /// Accepts the `xsd:boolean` spellings `true`, `false`, `1` and `0`.
    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> Bool
    {
        switch trimmed(text) {
        case "true", "1": return true
        case "false", "0": return false
        default: throw mismatch(text, codingPath, expected: "Bool (true or false)")
        }
    }
}

// MARK: - Numbers

/// Integers are written in decimal and read back with an optional sign.
protocol XMLInteger: XMLScalarEncodable, XMLScalarDecodable, FixedWidthInteger {}

extension XMLInteger {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) -> String { String(self) }

    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> Self
    {
        let digits = trimmed(text)
        if let value = Self(digits, radix: 10) { return value }
        let unsigned = digits.first == "-" || digits.first == "+" ? digits.dropFirst() : Substring(digits)
        if !unsigned.isEmpty && unsigned.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw corrupted(text, codingPath, reason: "does not fit in \(Self.self)")
        }
        throw mismatch(text, codingPath)
    }
}

extension Int: XMLInteger {}
extension Int8: XMLInteger {}
extension Int16: XMLInteger {}
extension Int32: XMLInteger {}
extension Int64: XMLInteger {}
extension UInt: XMLInteger {}
extension UInt8: XMLInteger {}
extension UInt16: XMLInteger {}
extension UInt32: XMLInteger {}
extension UInt64: XMLInteger {}

/// Floating-point numbers use Swift's shortest round-tripping form, and the `xsd:double`
/// spellings `NaN`, `INF` and `-INF` for the special values.
protocol XMLFloatingPoint: XMLScalarEncodable, XMLScalarDecodable, BinaryFloatingPoint, LosslessStringConvertible {}

extension XMLFloatingPoint {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) -> String {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-INF" : "INF" }
        return description
    }

    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> Self
    {
        let number = trimmed(text)
        switch number {
        case "NaN": return .nan
        case "INF", "+INF": return .infinity
        case "-INF": return -.infinity
        default: break
        }
        guard let value = Self(number) else { throw mismatch(text, codingPath) }
        if value.isInfinite && !number.lowercased().hasSuffix("inf") && !number.lowercased().hasSuffix("infinity") {
            throw corrupted(text, codingPath, reason: "does not fit in \(Self.self)")
        }
        return value
    }
}

extension Double: XMLFloatingPoint {}
extension Float: XMLFloatingPoint {}

extension Decimal: XMLScalarEncodable, XMLScalarDecodable {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) -> String { description }

    /// Accepts an optional sign, digits with an optional `.` fraction and an optional exponent.
    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> Decimal
    {
        let number = trimmed(text)
        guard isDecimalLiteral(number), let value = Decimal(string: number, locale: nil) else {
            throw mismatch(text, codingPath)
        }
        return value
    }

    /// Whether `text` matches `[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?`; `Decimal(string:)` alone
    /// also accepts trailing garbage.
    private static func isDecimalLiteral(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

// MARK: - Foundation values

extension Date: XMLScalarEncodable, XMLScalarDecodable {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) throws -> String {
        switch encoder.dateEncodingStrategy {
        case .iso8601:
            return formatted(Date.ISO8601FormatStyle())
        case .iso8601WithFractionalSeconds:
            return formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        case .secondsSince1970:
            return Date.number(timeIntervalSince1970)
        case .millisecondsSince1970:
            return Date.number(timeIntervalSince1970 * 1000)
        case .custom(let format):
            return try format(self)
        }
    }

    /// Whole numbers without a fraction (`1700000000`), others in Swift's round-tripping form.
    private static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> Date
    {
        switch decoder.dateDecodingStrategy {
        case .iso8601:
            let string = trimmed(text)
            if let date = try? Date.ISO8601FormatStyle().parse(string) { return date }
            if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string) { return date }
            throw corrupted(text, codingPath, reason: "is not an ISO 8601 date and time")
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try Double.decode(xmlText: text, using: decoder, codingPath: codingPath))
        case .millisecondsSince1970:
            let milliseconds = try Double.decode(xmlText: text, using: decoder, codingPath: codingPath)
            return Date(timeIntervalSince1970: milliseconds / 1000)
        case .custom(let parse):
            return try parse(text)
        }
    }
}

extension Data: XMLScalarEncodable, XMLScalarDecodable {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) -> String { base64EncodedString() }

    /// Reads Base64, ignoring whitespace and line breaks inside it.
    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> Data
    {
        let base64 = String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
        guard let data = Data(base64Encoded: base64) else {
            throw corrupted(text, codingPath, reason: "is not valid Base64")
        }
        return data
    }
}

extension URL: XMLScalarEncodable, XMLScalarDecodable {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) -> String { absoluteString }

    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> URL
    {
        let string = trimmed(text)
        guard !string.isEmpty, let url = URL(string: string) else {
            throw corrupted(text, codingPath, reason: "is not a valid URL")
        }
        return url
    }
}

extension UUID: XMLScalarEncodable, XMLScalarDecodable {
    func xmlText(using encoder: XMLValueEncoder, codingPath: [any CodingKey]) -> String { uuidString }

    static func decode(xmlText text: String, using decoder: XMLValueDecoder, codingPath: [any CodingKey]) throws
        -> UUID
    {
        guard let uuid = UUID(uuidString: trimmed(text)) else {
            throw corrupted(text, codingPath, reason: "is not a valid UUID")
        }
        return uuid
    }
}
