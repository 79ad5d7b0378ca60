import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Any JSON value, for the parts of JSON-RPC whose shape only the service knows: an error's
/// `data`, or params and results you do not want to declare a type for.
///
/// Write one with literals, read it with the accessors, or turn it into a type of your own with
/// ``decode(_:using:)``:
///
/// ```swift
/// let params: JSONRPCValue = ["name": "kit", "tags": ["a", "b"], "limit": 10]
/// let detail = try error.data?.decode(ValidationDetail.self)
/// ```
///
/// Numbers are kept as `Int` when they have no fractional part and fit, as `Double` otherwise.
/// Values nest at most ``maximumDepth`` arrays and objects deep when they are decoded or encoded.
public enum JSONRPCValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fractional part that fits an `Int`.
    case integer(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONRPCValue])
    /// An object.
    case object([String: JSONRPCValue])

    /// The deepest nesting of arrays and objects a value may have to be decoded or encoded: 64.
    ///
    /// `Codable` recurses once per level, through `JSONDecoder` and the standard library as well
    /// as this type, so this limit is what keeps a hostile server's `[[[[…]]]]` from exhausting
    /// the stack. In an unoptimized build each level takes about 3.5 KiB of stack, and a Task's
    /// stack on Apple platforms is 512 KiB: 64 levels leave room for the call that decodes them.
    /// JSON-RPC services nest their data a few levels deep. Levels count from the root of the
    /// document, so the `data` of an error object (`{"error":{"data":…}}`) may nest two fewer.
    ///
    /// An array or object deeper than that fails to decode with `DecodingError.dataCorrupted`,
    /// and to encode with `EncodingError.invalidValue`; a response holding one fails the call with
    /// ``WebServiceError/decoding(_:)``. (`JSONDecoder` itself refuses documents nested deeper
    /// than 512 levels before any value is decoded.)
    ///
    /// A value you build yourself is not limited, and ``description`` writes one of any depth;
    /// but Swift releases nested arrays and dictionaries recursively, so a value nested tens of
    /// thousands of levels deep can overflow the stack when it is released.
    public static let maximumDepth = 64

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if (try? decoder.unkeyedContainer()) != nil {
            // Known to be an array: an error inside it (such as the depth limit) is the answer.
            try Self.checkDepth(of: decoder.codingPath, decoding: true)
            self = .array(try container.decode([JSONRPCValue].self))
        } else if (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil {
            try Self.checkDepth(of: decoder.codingPath, decoding: true)
            self = .object(try container.decode([String: JSONRPCValue].self))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .double(let double): try container.encode(double)
        case .string(let string): try container.encode(string)
        case .array(let array):
            try Self.checkDepth(of: encoder.codingPath, decoding: false, value: self)
            try container.encode(array)
        case .object(let object):
            try Self.checkDepth(of: encoder.codingPath, decoding: false, value: self)
            try container.encode(object)
        }
    }

    /// Throws when an array or object at `codingPath` would be nested deeper than
    /// ``maximumDepth``: the root is the first level.
    private static func checkDepth(
        of codingPath: [any CodingKey], decoding: Bool, value: JSONRPCValue = .null
    ) throws {
        guard codingPath.count >= maximumDepth else { return }
        let description = "The value nests deeper than the maximum depth of \(maximumDepth) arrays and objects."
        if decoding {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: description))
        }
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: description))
    }

    /// Any key: to ask whether a value is an object.
    private struct AnyCodingKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes `value` and reads it back as a JSON value.
    public init(encoding value: some Encodable, using encoder: JSONEncoder = JSONEncoder()) throws {
        self = try JSONDecoder().decode(JSONRPCValue.self, from: encoder.encode(value))
    }

    /// Decodes the value as `type`, through `decoder` (so its strategies apply).
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: JSONEncoder().encode(self))
    }

    /// The member named `key`, when the value is an object that has it.
    public subscript(key: String) -> JSONRPCValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    /// The element at `index`, when the value is an array that long.
    public subscript(index: Int) -> JSONRPCValue? {
        if case .array(let array) = self, array.indices.contains(index) { array[index] } else { nil }
    }

    /// The string, when the value is one.
    public var stringValue: String? { if case .string(let string) = self { string } else { nil } }

    /// The number as an `Int`, when the value is a number without a fractional part.
    public var intValue: Int? {
        switch self {
        case .integer(let integer): integer
        case .double(let double): Int(exactly: double)
        default: nil
        }
    }

    /// The number as a `Double`, when the value is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }

    /// The Boolean, when the value is one.
    public var boolValue: Bool? { if case .bool(let bool) = self { bool } else { nil } }

    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }

    /// The value as compact JSON text, object members sorted by name.
    ///
    /// Written with an explicit stack, so any depth of nesting is safe.
    public var description: String {
        /// A piece still to write: a value, or punctuation.
        enum Piece {
            case value(JSONRPCValue)
            case text(String)
        }
        var output = ""
        var pieces: [Piece] = [.value(self)]
        while let piece = pieces.popLast() {
            switch piece {
            case .text(let text): output += text
            case .value(.null): output += "null"
            case .value(.bool(let bool)): output += bool ? "true" : "false"
            case .value(.integer(let integer)): output += String(integer)
            case .value(.double(let double)):
                output += double.isFinite ? (Int(exactly: double).map { "\($0).0" } ?? "\(double)") : "\"\(double)\""
            case .value(.string(let string)): output += JSONText.quoted(string)
            case .value(.array(let array)):
                output += "["
                pieces.append(.text("]"))
                for (index, element) in array.enumerated().reversed() {
                    pieces.append(.value(element))
                    if index > 0 { pieces.append(.text(",")) }
                }
            case .value(.object(let object)):
                output += "{"
                pieces.append(.text("}"))
                for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated().reversed() {
                    pieces.append(.value(member.value))
                    pieces.append(.text(JSONText.quoted(member.key) + ":"))
                    if index > 0 { pieces.append(.text(",")) }
                }
            }
        }
        return output
    }
}

extension JSONRPCValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONRPCValue...) { self = .array(elements) }

    public init(dictionaryLiteral elements: (String, JSONRPCValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
