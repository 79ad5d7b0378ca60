import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// A primitive value written as an OData literal (OData 4.01 Part 2 §5.1.1.6.1, ABNF
/// `primitiveLiteral`), in the form of the query's ``ODataVersion``.
///
/// Literals are made from Swift values through ``ODataLiteralConvertible``: `"Baker's"` becomes
/// `'Baker''s'`, `2.5 as Decimal` becomes `2.5` (`2.5M` before v4), a `UUID` becomes a bare GUID
/// (`guid'…'` before v4), a `Date` becomes a DateTimeOffset such as `2024-05-01T10:30:00Z`.
/// Percent-encoding happens later, once, when the whole option value is put into the URL.
public struct ODataLiteral: Sendable, Hashable {
    enum Value: Sendable, Hashable {
        case null
        case boolean(Bool)
        case integer(Int64)
        case decimal(Decimal)
        case double(Double)
        case single(Float)
        case string(String)
        case date(ODataDate)
        case dateTimeOffset(Date)
        case zonedDateTime(ODataDateTimeOffset)
        case timeOfDay(ODataTimeOfDay)
        case duration(ODataDuration)
        case guid(UUID)
        case enumMember(ODataEnumMember)
        case binary(Data)
        case raw(String)
    }

    let value: Value

    init(_ value: Value) { self.value = value }

    /// `null`.
    public static let null = ODataLiteral(.null)

    /// Text written into the URL as it is: the escape hatch for literal forms the builder does not
    /// know (a geography literal, a JSON array). It is still percent-encoded for the URL.
    public static func raw(_ text: String) -> ODataLiteral { ODataLiteral(.raw(text)) }

    /// The literal as it appears in an expression (before percent-encoding).
    public func text(for version: ODataVersion) throws(ODataQueryError) -> String {
        let legacy = version < .v4
        switch value {
        case .null: return "null"
        case .boolean(let value): return value ? "true" : "false"
        case .integer(let value):
            // Before v4 an Int64 literal needs its `L` suffix (OData 2.0 URI conventions §2.2.2).
            return legacy && (value < Int64(Int32.min) || value > Int64(Int32.max)) ? "\(value)L" : "\(value)"
        case .decimal(let value):
            guard !value.isNaN else { throw .invalidValue("a decimal literal cannot be NaN") }
            return legacy ? "\(value)M" : "\(value)"
        case .double(let value): return Self.floatingText(value, suffix: legacy ? "d" : "")
        case .single(let value): return Self.floatingText(Double(value), suffix: legacy ? "f" : "", single: value)
        case .string(let value): return Self.quoted(value)
        case .date(let date):
            let text = try date.text()
            return legacy ? "datetime'\(text)T00:00'" : text
        case .dateTimeOffset(let date):
            let text = try ODataDateFormatting.dateTimeOffset(date)
            return legacy ? "datetime'\(text.dropLast())'" : text
        case .zonedDateTime(let value):
            let text = try value.text()
            return legacy ? "datetimeoffset'\(text)'" : text
        case .timeOfDay(let time):
            return legacy ? "time'\(try time.durationText())'" : try time.text()
        case .duration(let duration):
            let text = try duration.text()
            return legacy ? "time'\(text)'" : "duration'\(text)'"
        case .guid(let uuid):
            let text = uuid.uuidString.lowercased()
            return legacy ? "guid'\(text)'" : text
        case .enumMember(let member):
            guard !legacy else { throw .unsupported("an enumeration literal", version: version) }
            return try member.text()
        case .binary(let data):
            // v4: base64url without padding (ABNF `binaryValue`); before v4: hexadecimal.
            guard !legacy else { return "binary'\(data.map { String(format: "%02X", $0) }.joined())'" }
            let base64 = data.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            return "binary'\(base64)'"
        case .raw(let text): return text
        }
    }

    /// A string in single quotes, each quote doubled (ABNF `string = SQUOTE *( SQUOTE-in-string /
    /// pchar-no-SQUOTE ) SQUOTE`, `SQUOTE-in-string = SQUOTE SQUOTE`).
    ///
    /// Quotes are found by Unicode scalar: `replacingOccurrences(of:with:)` compares `Character`s,
    /// so it missed a quote that a combining mark follows (`'\u{301}`), and the lone quote that
    /// reached the server ended the string early (filter injection).
    static func quoted(_ text: String) -> String {
        var quoted = "'"
        quoted.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            if scalar == "'" { quoted.unicodeScalars.append("'") }
            quoted.unicodeScalars.append(scalar)
        }
        quoted.unicodeScalars.append("'")
        return quoted
    }

    private static func floatingText(_ value: Double, suffix: String, single: Float? = nil) -> String {
        if value.isNaN { return (suffix.isEmpty ? "NaN" : "Nan") + suffix }
        if value.isInfinite { return (value < 0 ? "-INF" : "INF") + suffix }
        // Swift prints the shortest text that reads back as the same value: `0.1`, `1e+100`.
        let text = single.map { "\($0)" } ?? "\(value)"
        return text + suffix
    }
}

/// A Swift value that can stand as an OData literal in a filter, a key or a parameter.
public protocol ODataLiteralConvertible: Sendable {
    /// The value as an OData literal.
    var odataLiteral: ODataLiteral { get }
}

extension ODataLiteral: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { self }
}

extension String: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.string(self)) }
}

extension Substring: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.string(String(self))) }
}

extension Bool: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.boolean(self)) }
}

extension Int: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.integer(Int64(self))) }
}

extension Int8: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.integer(Int64(self))) }
}

extension Int16: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.integer(Int64(self))) }
}

extension Int32: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.integer(Int64(self))) }
}

extension Int64: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.integer(self)) }
}

extension UInt8: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.integer(Int64(self))) }
}

extension UInt16: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.integer(Int64(self))) }
}

extension UInt32: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.integer(Int64(self))) }
}

extension Decimal: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.decimal(self)) }
}

extension Double: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.double(self)) }
}

extension Float: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.single(self)) }
}

extension UUID: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.guid(self)) }
}

/// A `Date` is an instant: an `Edm.DateTimeOffset` written in UTC.
extension Date: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.dateTimeOffset(self)) }
}

/// `Data` is an `Edm.Binary` value.
extension Data: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { ODataLiteral(.binary(self)) }
}

extension Optional: ODataLiteralConvertible where Wrapped: ODataLiteralConvertible {
    public var odataLiteral: ODataLiteral { self?.odataLiteral ?? .null }
}
